import * as z from "zod/mini";
import { jsonObjectSchema } from "./event-schemas.js";
import { MAX_DELAY_MS } from "./hook-response.js";

/**
 * The JSON form of every message in `hooks.proto` (package `a3s.hooks.v1`), shared by every
 * transport: the gRPC transport converts protobuf objects to and from these shapes, and the
 * WebSocket transport sends them as frames (`{ type: "RegisterHookRequest", ...message }`).
 *
 * The JSON form follows proto3's JSON mapping (lowerCamelCase names; an absent field reads as
 * its zero value, which the protocol uses for "not given") with
 * two deliberate differences: enums are the lower-case words of the TypeScript API
 * (`"block"`, `"allow"`), and the `bytes` fields that hold JSON (`payload`, `modified`,
 * `args`, `metadata`, `data`) carry the decoded JSON object rather than base64.
 */

/** The protocol's package name; transports may send it so a peer can refuse a version it does not speak. */
export const PROTOCOL = "a3s.hooks.v1";

/** The TCP port an agent's hook server listens on unless told otherwise (gRPC and WebSocket). */
export const DEFAULT_HOOK_PORT = 16300;

/** Metadata (gRPC) / header names of the protocol. */
export const WIRE_HEADERS = Object.freeze({
  /** `Bearer <token>` on every call. */
  authorization: "authorization",
  /** The caller's client id on every call. */
  clientId: "x-a3s-client-id",
  /** Initial metadata of an accepted HookStream: `true` when the server still held the client's hooks. */
  resumed: "x-a3s-resumed",
  /**
   * The client's resume secret. The server sends it in the initial metadata of every accepted
   * HookStream (a fresh one when it held no record of the client id); the client sends it on
   * every later hook call and HookStream for that id. Only its holder can act for the client id.
   */
  clientSecret: "x-a3s-client-secret",
  /** Trailing metadata of a failed call: the {@link HookError} code, more precise than the status. */
  errorCode: "x-a3s-error-code",
});

const ID = /^[A-Za-z0-9._-]{1,100}$/;

/** True for a valid client or hook id: 1 to 100 of `A-Z a-z 0-9 . _ -`. */
export function isWireId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

const idSchema = z.string().check(z.refine(isWireId, "expected 1 to 100 of A-Z a-z 0-9 . _ -"));
const text = (max: number) => z.string().check(z.maxLength(max));
const count = z._default(z.number().check(z.int(), z.nonnegative()), 0);
// proto3 leaves zero values (0, "", false, empty lists) off the wire; read absent as zero.
const zero = <T extends z.ZodMiniType>(schema: T, value: Exclude<z.output<T>, undefined>) =>
  z._default(schema, value as never);

/** The A3S SDK's `HookMatcher`, plus `pattern` (a name matcher for events that are not tool events). */
export const hookMatcherMessageSchema = z.object({
  tool: z.optional(text(4096)),
  pathPattern: z.optional(text(4096)),
  commandPattern: z.optional(text(4096)),
  pattern: z.optional(text(4096)),
});

/** The A3S SDK's `HookConfig`, plus `failBehavior` and `name`. `timeoutMs` 0 means the host's default. */
export const hookConfigMessageSchema = z.object({
  priority: z.optional(z.int32()),
  timeoutMs: z.optional(z.number().check(z.int(), z.nonnegative(), z.lte(MAX_DELAY_MS))),
  async: z.optional(z.boolean()),
  failBehavior: z.optional(z.enum(["continue", "block"])),
  name: z.optional(text(256)),
});

export const registerHookRequestSchema = z.object({
  eventType: zero(text(128), ""),
  matcher: z.optional(hookMatcherMessageSchema),
  config: z.optional(hookConfigMessageSchema),
  /** Chosen by the client; the server makes one when absent or empty. */
  hookId: z.optional(z.union([z.literal(""), idSchema])),
});

export const registerHookResponseSchema = z.object({ hookId: idSchema });

export const unregisterHookRequestSchema = z.object({ hookId: idSchema });

export const unregisterHookResponseSchema = z.object({ removed: zero(z.boolean(), false) });

export const listHooksRequestSchema = z.object({ eventType: z.optional(text(128)) });

export const hookCountersSchema = z.object({
  runs: count,
  blocks: count,
  failures: count,
  timeouts: count,
  rejectedResponses: count,
});

export const hookInfoMessageSchema = z.object({
  hookId: idSchema,
  eventType: z.string(),
  matcher: z.optional(hookMatcherMessageSchema),
  config: zero(hookConfigMessageSchema, {}),
  counters: zero(hookCountersSchema, {
    runs: 0,
    blocks: 0,
    failures: 0,
    timeouts: 0,
    rejectedResponses: 0,
  }),
});

export const listHooksResponseSchema = z.object({
  hooks: zero(z.array(hookInfoMessageSchema), []),
});

/**
 * A firing of one hook (or, with `cancel: true`, the end of the agent's wait for one).
 * `payload` is the whole event object.
 */
export const hookEventMessageSchema = z.object({
  hookId: idSchema,
  eventType: text(128),
  sessionId: zero(z.string(), ""),
  timestamp: zero(z.number(), 0),
  payload: z.optional(jsonObjectSchema),
  eventId: z.string().check(z.minLength(1), z.maxLength(256)),
  /** Epoch milliseconds when the agent stops waiting. */
  deadlineMs: zero(z.number(), 0),
  cancel: z.optional(z.boolean()),
  cancelReason: z.optional(z.string()),
});

/** A client's answer to one firing, matched by (`hookId`, `eventId`). */
export const hookResponseMessageSchema = z.object({
  hookId: idSchema,
  eventId: z.string().check(z.minLength(1), z.maxLength(256)),
  action: zero(z.enum(["continue", "block", "retry", "skip"]), "continue"),
  reason: z.optional(text(65_536)),
  modified: z.optional(jsonObjectSchema),
  retryDelayMs: z.optional(z.number().check(z.nonnegative(), z.lte(MAX_DELAY_MS))),
  systemMessage: z.optional(text(65_536)),
  additionalContext: z.optional(text(1_048_576)),
  suppressOutput: z.optional(z.boolean()),
  permission: z.optional(z.enum(["allow", "ask"])),
  /** Set when the client's handler failed: the agent applies the hook's fail behaviour. */
  error: z.optional(text(65_536)),
});

export const createSessionRequestSchema = z.object({
  sessionId: z.optional(text(256)),
  workingDirectory: z.optional(text(4096)),
  model: z.optional(text(256)),
  metadata: z.optional(jsonObjectSchema),
});

export const createSessionResponseSchema = z.object({
  sessionId: z.string().check(z.minLength(1)),
});

export const destroySessionRequestSchema = z.object({
  sessionId: text(256),
  reason: z.optional(text(4096)),
});

export const destroySessionResponseSchema = z.object({ destroyed: zero(z.boolean(), false) });

export const generateRequestSchema = z.object({
  sessionId: text(256),
  prompt: zero(z.string(), ""),
});

export const tokenUsageMessageSchema = z.object({
  promptTokens: count,
  completionTokens: count,
  totalTokens: count,
});

export const generateProgressSchema = z.object({
  /** `text`, `tool_call`, `tool_result`, `blocked`, … */
  kind: zero(z.string(), ""),
  text: z.optional(z.string()),
  data: z.optional(jsonObjectSchema),
});

export const generateResultSchema = z.object({
  text: zero(z.string(), ""),
  usage: z.optional(tokenUsageMessageSchema),
  blocked: z.optional(z.boolean()),
  reason: z.optional(z.string()),
});

/** One message of the Generate stream: progress, then exactly one result. */
export const generateEventMessageSchema = z.union([
  z.object({ progress: generateProgressSchema }),
  z.object({ result: generateResultSchema }),
]);

export const executeToolRequestSchema = z.object({
  sessionId: text(256),
  tool: z.string().check(z.minLength(1), z.maxLength(256)),
  args: zero(jsonObjectSchema, {}),
});

export const executeToolResponseSchema = z.object({
  success: zero(z.boolean(), false),
  output: zero(z.string(), ""),
  exitCode: z.optional(z.int32()),
  durationMs: zero(z.number().check(z.nonnegative()), 0),
  blocked: z.optional(z.boolean()),
  reason: z.optional(z.string()),
});

/** Message transports only (WebSocket): the first frame a client sends, in place of gRPC metadata. */
export const helloSchema = z.object({
  clientId: idSchema,
  token: z.optional(text(4096)),
  protocol: z.optional(z.string()),
  /** The resume secret an earlier `Welcome` gave this client id; absent on a first connection. */
  clientSecret: z.optional(text(256)),
});

/** Message transports only: the server's answer to `Hello`, in place of the HookStream's initial metadata. */
export const welcomeSchema = z.object({
  clientId: idSchema,
  resumed: z.boolean(),
  protocol: z.string(),
  /** The client's resume secret: present it in every later `Hello` for this client id. */
  clientSecret: z.optional(text(256)),
});

/** Message transports only: a failed call or a refused connection, in place of a gRPC status. */
export const errorMessageSchema = z.object({
  code: z.string(),
  message: z.string(),
  path: z.optional(z.array(z.union([z.string(), z.number()]))),
});

/** A frame's `id`, which pairs a request with the frames that answer it: at most 128 characters. */
export const frameIdSchema = z.string().check(z.maxLength(128));

/**
 * Message transports only: the caller gave up on request `id`, in place of a gRPC
 * cancellation. The host aborts the call's `AbortSignal` and sends nothing more for it.
 */
export const cancelSchema = z.object({ id: frameIdSchema });

/** hooks.proto's `HookMatcher` message, in its JSON form (camelCase field names). */
export type HookMatcherMessage = z.output<typeof hookMatcherMessageSchema>;
/** hooks.proto's `HookConfig` message, in its JSON form (camelCase field names). */
export type HookConfigMessage = z.output<typeof hookConfigMessageSchema>;
/** hooks.proto's `RegisterHookRequest` message, in its JSON form (camelCase field names). */
export type RegisterHookRequest = z.output<typeof registerHookRequestSchema>;
/** hooks.proto's `RegisterHookResponse` message, in its JSON form (camelCase field names). */
export type RegisterHookResponse = z.output<typeof registerHookResponseSchema>;
/** hooks.proto's `UnregisterHookRequest` message, in its JSON form (camelCase field names). */
export type UnregisterHookRequest = z.output<typeof unregisterHookRequestSchema>;
/** hooks.proto's `UnregisterHookResponse` message, in its JSON form (camelCase field names). */
export type UnregisterHookResponse = z.output<typeof unregisterHookResponseSchema>;
/** hooks.proto's `ListHooksRequest` message, in its JSON form (camelCase field names). */
export type ListHooksRequest = z.output<typeof listHooksRequestSchema>;
/** hooks.proto's `HookCounters` message, in its JSON form (camelCase field names). */
export type HookCounters = z.output<typeof hookCountersSchema>;
/** hooks.proto's `HookInfo` message, in its JSON form (camelCase field names). */
export type HookInfoMessage = z.output<typeof hookInfoMessageSchema>;
/** hooks.proto's `ListHooksResponse` message, in its JSON form (camelCase field names). */
export type ListHooksResponse = z.output<typeof listHooksResponseSchema>;
/** hooks.proto's `HookEvent` message, in its JSON form (camelCase field names). */
export type HookEventMessage = z.output<typeof hookEventMessageSchema>;
/** hooks.proto's `HookResponse` message, in its JSON form (camelCase field names). */
export type HookResponseMessage = z.output<typeof hookResponseMessageSchema>;
/** hooks.proto's `CreateSessionRequest` message, in its JSON form (camelCase field names). */
export type CreateSessionRequest = z.output<typeof createSessionRequestSchema>;
/** hooks.proto's `CreateSessionResponse` message, in its JSON form (camelCase field names). */
export type CreateSessionResponse = z.output<typeof createSessionResponseSchema>;
/** hooks.proto's `DestroySessionRequest` message, in its JSON form (camelCase field names). */
export type DestroySessionRequest = z.output<typeof destroySessionRequestSchema>;
/** hooks.proto's `DestroySessionResponse` message, in its JSON form (camelCase field names). */
export type DestroySessionResponse = z.output<typeof destroySessionResponseSchema>;
/** hooks.proto's `GenerateRequest` message, in its JSON form (camelCase field names). */
export type GenerateRequest = z.output<typeof generateRequestSchema>;
/** hooks.proto's `TokenUsage` message, in its JSON form (camelCase field names). */
export type TokenUsageMessage = z.output<typeof tokenUsageMessageSchema>;
/** hooks.proto's `GenerateProgress` message, in its JSON form (camelCase field names). */
export type GenerateProgress = z.output<typeof generateProgressSchema>;
/** hooks.proto's `GenerateResult` message, in its JSON form (camelCase field names). */
export type GenerateResult = z.output<typeof generateResultSchema>;
/** hooks.proto's `GenerateEvent` message, in its JSON form (camelCase field names). */
export type GenerateEventMessage = z.output<typeof generateEventMessageSchema>;
/** hooks.proto's `ExecuteToolRequest` message, in its JSON form (camelCase field names). */
export type ExecuteToolRequest = z.output<typeof executeToolRequestSchema>;
/** hooks.proto's `ExecuteToolResponse` message, in its JSON form (camelCase field names). */
export type ExecuteToolResponse = z.output<typeof executeToolResponseSchema>;
/** The `Hello` frame of message transports (WebSocket): the client's first message. */
export type HelloMessage = z.output<typeof helloSchema>;
/** The `Welcome` frame of message transports: the host's answer to `Hello`. */
export type WelcomeMessage = z.output<typeof welcomeSchema>;
/** The `Error` frame of message transports: a failed request, or why the host closes. */
export type ErrorMessage = z.output<typeof errorMessageSchema>;
/** The `Cancel` frame of message transports: the caller gave up on a request. */
export type CancelMessage = z.output<typeof cancelSchema>;

/** Every message by its name in `hooks.proto` (plus the four frames of message transports). */
export const wireSchemas = {
  RegisterHookRequest: registerHookRequestSchema,
  RegisterHookResponse: registerHookResponseSchema,
  UnregisterHookRequest: unregisterHookRequestSchema,
  UnregisterHookResponse: unregisterHookResponseSchema,
  ListHooksRequest: listHooksRequestSchema,
  ListHooksResponse: listHooksResponseSchema,
  HookEvent: hookEventMessageSchema,
  HookResponse: hookResponseMessageSchema,
  CreateSessionRequest: createSessionRequestSchema,
  CreateSessionResponse: createSessionResponseSchema,
  DestroySessionRequest: destroySessionRequestSchema,
  DestroySessionResponse: destroySessionResponseSchema,
  GenerateRequest: generateRequestSchema,
  GenerateEvent: generateEventMessageSchema,
  ExecuteToolRequest: executeToolRequestSchema,
  ExecuteToolResponse: executeToolResponseSchema,
  Hello: helloSchema,
  Welcome: welcomeSchema,
  Error: errorMessageSchema,
  Cancel: cancelSchema,
} as const;

/** The name of a wire message: `RegisterHookRequest`, `HookEvent`, `Hello`, … */
export type WireMessageType = keyof typeof wireSchemas;
/** Every wire message's type, by name. */
export type WireMessageMap = { [K in WireMessageType]: z.output<(typeof wireSchemas)[K]> };
