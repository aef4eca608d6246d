import * as z from "zod/mini";
import { jsonObjectSchema } from "../events/event-schemas.js";
import { deferRoutingSchema } from "../merge/defer-routing.js";
import { MAX_DELAY_MS, MAX_RESPOND_OUTPUT_CHARS } from "../merge/hook-response.js";

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
  /** Trailing metadata of a failed call: the `HookError` code, more precise than the status. */
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
  /**
   * A name matcher over the tool name: `Bash`, `Write|Edit`, `mcp__github__*`, or a regular
   * expression.
   */
  tool: z.optional(text(4096)),
  /** A glob over the tool's path argument (`file_path`, `path`, …). */
  pathPattern: z.optional(text(4096)),
  /** A regular expression searched in the tool's `command` argument. */
  commandPattern: z.optional(text(4096)),
  /**
   * For events that are not tool events: a name matcher over the event's matcher target (model
   * name, source, trigger, …).
   */
  pattern: z.optional(text(4096)),
});

/** The A3S SDK's `HookConfig`, plus `failBehavior` and `name`. `timeoutMs` 0 means the host's default. */
export const hookConfigMessageSchema = z.object({
  /** Lower runs earlier, across every client and the host's own hooks. */
  priority: z.optional(z.int32()),
  /** Milliseconds the agent waits for the answer; 0: the host's default. */
  timeoutMs: z.optional(z.number().check(z.int(), z.nonnegative(), z.lte(MAX_DELAY_MS))),
  /** Fire and forget: the agent does not wait, and the answer cannot block. */
  async: z.optional(z.boolean()),
  /** What a failure, a timeout or the client being away contributes. */
  failBehavior: z.optional(z.enum(["continue", "block"])),
  /** A name for listings and audit records. */
  name: z.optional(text(256)),
});

export const registerHookRequestSchema = z.object({
  /** The event to hook (PascalCase; other spellings and the alias `ToolError` are accepted). */
  eventType: zero(text(128), ""),
  /** Which firings to send; every firing when absent. */
  matcher: z.optional(hookMatcherMessageSchema),
  /** Priority, timeout, fail behaviour, name. */
  config: z.optional(hookConfigMessageSchema),
  /** Chosen by the client; the server makes one when absent or empty. */
  hookId: z.optional(z.union([z.literal(""), idSchema])),
});

export const registerHookResponseSchema = z.object({ hookId: idSchema });

export const unregisterHookRequestSchema = z.object({ hookId: idSchema });

export const unregisterHookResponseSchema = z.object({ removed: zero(z.boolean(), false) });

export const listHooksRequestSchema = z.object({ eventType: z.optional(text(128)) });

export const hookCountersSchema = z.object({
  /** Firings the hook ran for. */
  runs: count,
  /** Firings it blocked. */
  blocks: count,
  /** Runs that failed. */
  failures: count,
  /** Runs that did not answer in time. */
  timeouts: count,
  /** Answers the agent threw away (late, malformed, for an unknown firing). */
  rejectedResponses: count,
});

export const hookInfoMessageSchema = z.object({
  /** The hook's id. */
  hookId: idSchema,
  /** The event it hooks. */
  eventType: z.string(),
  /** Its matcher, when it has one. */
  matcher: z.optional(hookMatcherMessageSchema),
  /** Its configuration, with the host's defaults filled in. */
  config: zero(hookConfigMessageSchema, {}),
  /** What the agent counted for it. */
  counters: zero(hookCountersSchema, {
    runs: 0,
    blocks: 0,
    failures: 0,
    timeouts: 0,
    rejectedResponses: 0,
  }),
});

export const listHooksResponseSchema = z.object({
  /** The hooks, the agent's own and every client's. */
  hooks: zero(z.array(hookInfoMessageSchema), []),
});

/**
 * A firing of one hook (or, with `cancel: true`, the end of the agent's wait for one).
 * `payload` is the whole event object.
 */
export const hookEventMessageSchema = z.object({
  /** The hook this firing is for. */
  hookId: idSchema,
  /** The event's canonical (PascalCase) name. */
  eventType: text(128),
  /** The session the event belongs to. */
  sessionId: zero(z.string(), ""),
  /** Milliseconds since the epoch, when the event was created. */
  timestamp: zero(z.number(), 0),
  /** The whole event (camelCase fields: `tool`, `args`, …); absent when `cancel` is set. */
  payload: z.optional(jsonObjectSchema),
  /** Unique per firing: the answer must carry it back. */
  eventId: z.string().check(z.minLength(1), z.maxLength(256)),
  /** Epoch milliseconds when the agent stops waiting. */
  deadlineMs: zero(z.number(), 0),
  /**
   * Set when the agent no longer waits for this firing: abort the handler; a later answer is
   * ignored.
   */
  cancel: z.optional(z.boolean()),
  /** Why the agent stopped waiting, for logs. */
  cancelReason: z.optional(z.string()),
});

/** A client's answer to one firing, matched by (`hookId`, `eventId`). */
export const hookResponseMessageSchema = z.object({
  /** The hook that answers. */
  hookId: idSchema,
  /** The firing it answers. */
  eventId: z.string().check(z.minLength(1), z.maxLength(256)),
  /**
   * `continue`, `block`, `retry`, `skip`, `respond` (a PreToolUse answered in place of the
   * tool: `output` is its result) or `defer` (a PreToolUse parked for a person: `reason` says
   * why, `routing` who may decide and by when).
   */
  action: zero(z.enum(["continue", "block", "retry", "skip", "respond", "defer"]), "continue"),
  /** Why it blocks (or retries, or defers). */
  reason: z.optional(text(65_536)),
  /** A JSON merge patch of the event's modifiable fields. */
  modified: z.optional(jsonObjectSchema),
  /** Milliseconds to wait before the retry. */
  retryDelayMs: z.optional(z.number().check(z.nonnegative(), z.lte(MAX_DELAY_MS))),
  /** A message for the user. */
  systemMessage: z.optional(text(65_536)),
  /** Context for the model. */
  additionalContext: z.optional(text(1_048_576)),
  /** Hide this hook's output from the transcript. */
  suppressOutput: z.optional(z.boolean()),
  /** `allow` skips the host's permission prompt, `ask` forces it (a deny is a `block`). */
  permission: z.optional(z.enum(["allow", "ask"])),
  /** Set when the client's handler failed: the agent applies the hook's fail behaviour. */
  error: z.optional(text(65_536)),
  /** `respond` only: the tool result the model reads; the tool does not run. */
  output: z.optional(text(MAX_RESPOND_OUTPUT_CHARS)),
  /**
   * `defer` only: who may decide the deferred call and by when, checked as core's
   * `DeferRouting` is (a misspelt field is an error naming it).
   */
  routing: z.optional(deferRoutingSchema),
});

export const createSessionRequestSchema = z.object({
  /** The id to use; the agent makes one when absent. */
  sessionId: z.optional(text(256)),
  /** The directory the session works in. */
  workingDirectory: z.optional(text(4096)),
  /** The model to run on. */
  model: z.optional(text(256)),
  /** Copied into the session's events. */
  metadata: z.optional(jsonObjectSchema),
});

export const createSessionResponseSchema = z.object({
  /** The new session's id. */
  sessionId: z.string().check(z.minLength(1)),
});

export const destroySessionRequestSchema = z.object({
  /** The session to end. */
  sessionId: text(256),
  /** Why, for SessionEnd hooks. */
  reason: z.optional(text(4096)),
});

export const destroySessionResponseSchema = z.object({ destroyed: zero(z.boolean(), false) });

export const generateRequestSchema = z.object({
  /** The session to generate in. */
  sessionId: text(256),
  /** The user's prompt. */
  prompt: zero(z.string(), ""),
});

export const tokenUsageMessageSchema = z.object({
  /** Tokens of the input. */
  promptTokens: count,
  /** Tokens of the answer. */
  completionTokens: count,
  /** Both together. */
  totalTokens: count,
});

export const generateProgressSchema = z.object({
  /** `text`, `tool_call`, `tool_result`, `blocked`, … */
  kind: zero(z.string(), ""),
  /** Text of this step, when it has some. */
  text: z.optional(z.string()),
  /** Structured details of this step (a tool call's arguments, …). */
  data: z.optional(jsonObjectSchema),
});

export const generateResultSchema = z.object({
  /** The answer's text. */
  text: zero(z.string(), ""),
  /** Tokens used. */
  usage: z.optional(tokenUsageMessageSchema),
  /** True when a hook blocked the generation (UserPromptSubmit, GenerateStart, …). */
  blocked: z.optional(z.boolean()),
  /** Why, when it was blocked. */
  reason: z.optional(z.string()),
});

/** One message of the Generate stream: progress, then exactly one result. */
export const generateEventMessageSchema = z.union([
  z.object({ progress: generateProgressSchema }),
  z.object({ result: generateResultSchema }),
]);

export const executeToolRequestSchema = z.object({
  /** The session to run the tool in. */
  sessionId: text(256),
  /** The tool's name. */
  tool: z.string().check(z.minLength(1), z.maxLength(256)),
  /** Its arguments. */
  args: zero(jsonObjectSchema, {}),
});

export const executeToolResponseSchema = z.object({
  /** False when the tool failed or was blocked. */
  success: zero(z.boolean(), false),
  /** What the tool returned, after PostToolUse hooks. */
  output: zero(z.string(), ""),
  /** The exit code, for tools that run a process. */
  exitCode: z.optional(z.int32()),
  /** Milliseconds the tool took. */
  durationMs: zero(z.number().check(z.nonnegative()), 0),
  /** True when a hook blocked the call; `reason` says why. */
  blocked: z.optional(z.boolean()),
  /** Why it was blocked. */
  reason: z.optional(z.string()),
});

/** Message transports only (WebSocket): the first frame a client sends, in place of gRPC metadata. */
export const helloSchema = z.object({
  /** The client's id: 1 to 100 of `A-Z a-z 0-9 . _ -`. */
  clientId: idSchema,
  /** The host's token (what gRPC sends as `authorization`). */
  token: z.optional(text(4096)),
  /** The protocol the client speaks (`a3s.hooks.v1`). */
  protocol: z.optional(z.string()),
  /** The resume secret an earlier `Welcome` gave this client id; absent on a first connection. */
  clientSecret: z.optional(text(256)),
});

/** Message transports only: the server's answer to `Hello`, in place of the HookStream's initial metadata. */
export const welcomeSchema = z.object({
  /** The client's id, as accepted. */
  clientId: idSchema,
  /** True when the host still held this client's hooks. */
  resumed: z.boolean(),
  /** The protocol the host speaks. */
  protocol: z.string(),
  /** The client's resume secret: present it in every later `Hello` for this client id. */
  clientSecret: z.optional(text(256)),
});

/** Message transports only: a failed call or a refused connection, in place of a gRPC status. */
export const errorMessageSchema = z.object({
  /** The `HookError` code (`UNAUTHENTICATED`, `INVALID_CONFIG`, …). */
  code: z.string(),
  /** What went wrong, for people. */
  message: z.string(),
  /** Where in the request the fault is, when it is about one field. */
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
