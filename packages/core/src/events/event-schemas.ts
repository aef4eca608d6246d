import * as z from "zod/mini";
import { type AnswerFieldInit, watchPathsSchema } from "./answer-fields.js";

/**
 * The event catalogue as zod schemas. Field names follow the A3S SDK's TypeScript (`tool`, `args`,
 * `result`, `response`, `sessionId`, `timestamp`, `metadata`); token usage keeps the
 * OpenAI-style snake_case object that the A3S SDK's examples read (`usage.total_tokens`).
 *
 * Schemas validate; they never reshape. Extra fields a host adds are kept, because the engine
 * checks events with these schemas but hands hooks the host's own object.
 */

/** Tool arguments, tool inputs: any JSON object. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** Token counts, in the OpenAI-style snake_case form (`prompt_tokens`, `total_tokens`, …). */
export const tokenUsageSchema = z.object({
  /** Tokens of the input. */
  prompt_tokens: z.number().check(z.nonnegative()),
  /** Tokens of the answer. */
  completion_tokens: z.number().check(z.nonnegative()),
  /** Both together. */
  total_tokens: z.number().check(z.nonnegative()),
});

/** A tool call the model asked for: its id, the tool's name, its arguments. */
export const toolCallSchema = z.object({
  /** The model's id for the call. */
  id: z.string(),
  /** The tool it wants. */
  name: z.string(),
  /** The arguments it gave. */
  args: jsonObjectSchema,
});

/** The model a generation runs on: its name, and optionally provider, temperature, token cap. */
export const modelConfigSchema = z.object({
  /** The model's name; string matchers of the generate events test it. */
  name: z.string(),
  /** Who serves it (`openai`, `anthropic`, …). */
  provider: z.optional(z.string()),
  /** The sampling temperature. */
  temperature: z.optional(z.number()),
  /** The most tokens the answer may have. */
  maxTokens: z.optional(z.number()),
});

/** One message of the conversation (system, user, assistant or tool). */
export const messageSchema = z.object({
  /** Who speaks: `system`, `user`, `assistant` or `tool` (a tool's result). */
  role: z.enum(["system", "user", "assistant", "tool"]),
  /** The message's text. */
  content: z.string(),
  /** On a `tool` message: the call it answers. */
  toolCallId: z.optional(z.string()),
  /** On an `assistant` message: the tools it called. */
  toolCalls: z.optional(z.array(toolCallSchema)),
});

/** What a tool returned: success, output text, exit code, duration in milliseconds. */
export const toolResultSchema = z.object({
  /** False when the tool reported a failure. */
  success: z.boolean(),
  /** What the tool returned, as text. */
  output: z.string(),
  /** The exit code, for tools that run a process. */
  exitCode: z.optional(z.number()),
  /** Milliseconds the tool took. */
  duration: z.number().check(z.nonnegative()),
});

/** Where a tool runs: the working directory and the tools run recently. */
export const toolContextSchema = z.object({
  /** The directory the tool works in. */
  workingDirectory: z.string(),
  /** The names of the tools run before this one, oldest first. */
  recentTools: z.array(z.string()),
  /** The session's token usage so far. */
  tokenUsage: tokenUsageSchema,
});

/** The fields every event carries besides `eventType`. */
export const baseEventFields = {
  /** Unique per firing, so a response can be matched to the firing it answers. */
  eventId: z.string().check(z.minLength(1)),
  /** The session the event belongs to. */
  sessionId: z.string(),
  /** Milliseconds since the epoch. */
  timestamp: z.number(),
  /** Whatever the host or earlier hooks attached; hooks may read anything here. */
  metadata: z.record(z.string(), z.unknown()),
};

/** An event's full schema: its `eventType`, the base fields, then its own fields. */
export function eventObject<N extends string, S extends z.core.$ZodLooseShape>(name: N, shape: S) {
  return z.object({
    /** The event's name: narrow a `HookEvent` on it. */
    eventType: z.literal(name),
    ...baseEventFields,
    ...shape,
  });
}

const event = eventObject;

const tool = {
  /** The tool's name (`Bash`, `mcp__github__create_issue`); string matchers test it. */
  tool: z.string().check(z.minLength(1)),
  /** The tool's arguments, as the model gave them (or as earlier hooks rewrote them). */
  args: jsonObjectSchema,
  /** The model's id for this call: the same in every event of one call. */
  toolUseId: z.optional(z.string()),
};

const decision = {
  ...tool,
  /** Who decided: a hook, the user, a policy, or the host's default. */
  decidedBy: z.optional(z.enum(["hook", "user", "policy", "default"])),
  /** Why, as the decider put it. */
  reason: z.optional(z.string()),
};

/** Every event, keyed by its canonical (PascalCase) name. */
export const eventSchemas = {
  /** A session starts or resumes; a hook may block it or add to `metadata`. */
  SessionStart: event("SessionStart", {
    /** How the session started: `startup`, `resume`, `clear`, `compact`, `fork`, … */
    source: z.string(),
    /** The directory the session works in. */
    workingDirectory: z.optional(z.string()),
    /** The model the session runs on, when the host says. */
    model: z.optional(modelConfigSchema),
    /**
     * Absolute paths the host should watch, firing FileChanged when one changes: hooks answer
     * them (Claude Code's `hookSpecificOutput.watchPaths`), and every hook's paths add up.
     */
    watchPaths: z.optional(watchPathsSchema),
  }),
  /** A session ended; hooks observe it. */
  SessionEnd: event("SessionEnd", {
    /** `exit`, `clear`, `logout`, `error`, … */
    reason: z.string(),
  }),
  /** The user sent a prompt, before the model sees it; a hook may block it or rewrite `prompt`. */
  UserPromptSubmit: event("UserPromptSubmit", {
    /** What the user typed. */
    prompt: z.string(),
  }),
  /**
   * A model call is about to start; a hook may block it or rewrite `prompt`, `systemPrompt`,
   * `messages` or `tools`.
   */
  GenerateStart: event("GenerateStart", {
    /** The latest user prompt. */
    prompt: z.string(),
    /** The system instructions. */
    systemPrompt: z.optional(z.string()),
    /** The model being called. */
    model: modelConfigSchema,
    /** Names of the tools offered to the model. */
    tools: z.array(z.string()),
    /** The conversation sent with the prompt, oldest first. */
    messages: z.optional(z.array(messageSchema)),
  }),
  /** A model call answered; a hook may rewrite `response.text`. */
  GenerateEnd: event("GenerateEnd", {
    /** The prompt the model answered. */
    prompt: z.string(),
    /** The model that answered. */
    model: modelConfigSchema,
    /** The answer: its text, the tool calls, the tokens used and the milliseconds it took. */
    response: z.object({
      text: z.string(),
      toolCalls: z.array(toolCallSchema),
      usage: tokenUsageSchema,
      duration: z.number().check(z.nonnegative()),
    }),
  }),
  /** A tool is about to run; a hook may block it or rewrite `args`. */
  PreToolUse: event("PreToolUse", {
    ...tool,
    /** Where the tool runs, when the host says. */
    context: z.optional(toolContextSchema),
  }),
  /** A tool ran; a hook may rewrite `result.output`. */
  PostToolUse: event("PostToolUse", {
    ...tool,
    /** What the tool returned. */
    result: toolResultSchema,
  }),
  /** A tool failed or threw; hooks observe it. `ToolError` is accepted as its name too. */
  PostToolUseFailure: event("PostToolUseFailure", {
    ...tool,
    /** What went wrong, as a message. */
    error: z.string(),
    /** The exit code, for tools that run a process. */
    exitCode: z.optional(z.number()),
    /** Milliseconds the tool ran before it failed. */
    duration: z.optional(z.number().check(z.nonnegative())),
  }),
  /** A tool needs permission; a hook may allow it, ask, deny it (a block) or rewrite `args`. */
  PermissionRequest: event("PermissionRequest", {
    ...tool,
    /** Why the host asks (e.g. "Bash runs commands"). */
    reason: z.optional(z.string()),
  }),
  /**
   * Permission for a tool was granted (`decidedBy`: a hook, the user or the default); hooks observe
   * it.
   */
  PermissionGranted: event("PermissionGranted", decision),
  /**
   * Permission for a tool was denied (`decidedBy`: a hook, the user or the default); hooks observe
   * it.
   */
  PermissionDenied: event("PermissionDenied", {
    ...decision,
    /**
     * A hook's answer (Claude Code's `hookSpecificOutput.retry`): true tells the model it may
     * try the call again. The denial stands.
     */
    retry: z.optional(z.boolean()),
  }),
  /** The context is about to be compacted (`manual` or `auto`); a hook may block it. */
  PreCompact: event("PreCompact", {
    /** `manual` or `auto`. */
    trigger: z.string(),
    /** What the user asked the summary to keep, when compacting by hand. */
    customInstructions: z.optional(z.string()),
    /** Messages in the context now. */
    messageCount: z.optional(z.number()),
    /** Tokens in the context now. */
    tokenCount: z.optional(z.number()),
  }),
  /** The context was compacted; hooks observe it. */
  PostCompact: event("PostCompact", {
    /** `manual` or `auto`. */
    trigger: z.string(),
    /** Messages before compacting. */
    messagesBefore: z.number(),
    /** Messages after. */
    messagesAfter: z.number(),
    /** Tokens before compacting. */
    tokensBefore: z.number(),
    /** Tokens after. */
    tokensAfter: z.number(),
    /** The summary that replaced the older messages. */
    summary: z.optional(z.string()),
  }),
  /** The context passed a share of its token budget; hooks observe it. */
  ContextWarning: event("ContextWarning", {
    /** What crossed the line, e.g. `threshold`. */
    trigger: z.string(),
    /** Tokens in use. */
    usedTokens: z.number(),
    /** The context's token budget. */
    maxTokens: z.number(),
    /** The fraction of the budget in use that fired the warning, 0 to 1. */
    threshold: z.number(),
  }),
  /**
   * The agent is about to stop; a block means "do not stop yet", its reason the next instruction.
   */
  Stop: event("Stop", {
    /** True when this stop follows a continuation a Stop hook asked for. */
    stopHookActive: z.boolean(),
    /** Why the agent stops, when the host says. */
    reason: z.optional(z.string()),
    /** The agent's last answer. */
    responseText: z.optional(z.string()),
  }),
  /** A subagent is about to start; a hook may block it or rewrite `description`. */
  SubagentStart: event("SubagentStart", {
    /** The subagent's id: the same in its SubagentStop. */
    subagentId: z.string(),
    /** Its kind (`general-purpose`, …); string matchers test it. */
    subagentType: z.string(),
    /** Its task, in a line. */
    description: z.string(),
    /** Its full instructions. */
    prompt: z.optional(z.string()),
  }),
  /** A subagent finished; hooks observe it. */
  SubagentStop: event("SubagentStop", {
    /** The subagent's id, as in its SubagentStart. */
    subagentId: z.string(),
    /** Its kind; string matchers test it. */
    subagentType: z.string(),
    /** False when it failed. */
    success: z.boolean(),
    /** Why it failed. */
    error: z.optional(z.string()),
    /** What it answered. */
    output: z.optional(z.string()),
  }),
  /** The agent tells the user something (a permission prompt, an error, idle); hooks observe it. */
  Notification: event("Notification", {
    /** The text shown to the user. */
    message: z.string(),
    /** `status`, `error`, `permission_prompt`, `idle`, … */
    notificationType: z.string(),
    /** How serious it is. */
    level: z.optional(z.enum(["info", "warning", "error"])),
    /** A heading for the message. */
    title: z.optional(z.string()),
  }),
  /** A skill is about to load; a hook may block it. */
  SkillLoad: event("SkillLoad", {
    /** The skill's name; string matchers test it. */
    skillName: z.string().check(z.minLength(1)),
    /** The skill's file. */
    path: z.optional(z.string()),
    /** What the skill is for, from its file. */
    description: z.optional(z.string()),
  }),
  /** A skill was unloaded; hooks observe it. */
  SkillUnload: event("SkillUnload", {
    /** The skill's name; string matchers test it. */
    skillName: z.string().check(z.minLength(1)),
    /** The skill's file. */
    path: z.optional(z.string()),
  }),
} as const;

/** What the catalogue knows about each built-in event besides its schema. */
export const builtinEventRows: Readonly<
  Record<
    keyof typeof eventSchemas,
    {
      canBlock: boolean;
      modifiable: readonly string[];
      matcherTarget?: string;
      answers?: Readonly<Record<string, AnswerFieldInit>>;
    }
  >
> = {
  SessionStart: {
    canBlock: true,
    modifiable: ["metadata"],
    matcherTarget: "source",
    answers: { watchPaths: { merge: "union" } },
  },
  SessionEnd: { canBlock: false, modifiable: [], matcherTarget: "reason" },
  UserPromptSubmit: { canBlock: true, modifiable: ["prompt"] },
  GenerateStart: {
    canBlock: true,
    modifiable: ["prompt", "systemPrompt", "messages", "tools"],
    matcherTarget: "model",
  },
  GenerateEnd: { canBlock: false, modifiable: ["response.text"], matcherTarget: "model" },
  PreToolUse: { canBlock: true, modifiable: ["args"], matcherTarget: "tool" },
  PostToolUse: { canBlock: false, modifiable: ["result.output"], matcherTarget: "tool" },
  PostToolUseFailure: { canBlock: false, modifiable: [], matcherTarget: "tool" },
  PermissionRequest: { canBlock: true, modifiable: ["args"], matcherTarget: "tool" },
  PermissionGranted: { canBlock: false, modifiable: [], matcherTarget: "tool" },
  PermissionDenied: {
    canBlock: false,
    modifiable: [],
    matcherTarget: "tool",
    answers: { retry: {} },
  },
  PreCompact: { canBlock: true, modifiable: [], matcherTarget: "trigger" },
  PostCompact: { canBlock: false, modifiable: [], matcherTarget: "trigger" },
  ContextWarning: { canBlock: false, modifiable: [], matcherTarget: "trigger" },
  Stop: { canBlock: true, modifiable: [] },
  SubagentStart: { canBlock: true, modifiable: ["description"], matcherTarget: "subagentType" },
  SubagentStop: { canBlock: false, modifiable: [], matcherTarget: "subagentType" },
  Notification: { canBlock: false, modifiable: [], matcherTarget: "notificationType" },
  SkillLoad: { canBlock: true, modifiable: [], matcherTarget: "skillName" },
  SkillUnload: { canBlock: false, modifiable: [], matcherTarget: "skillName" },
};

/** One schema for any built-in event, discriminated by `eventType`. */
export const hookEventSchema = z.discriminatedUnion(
  "eventType",
  Object.values(eventSchemas) as unknown as [
    (typeof eventSchemas)[keyof typeof eventSchemas],
    ...(typeof eventSchemas)[keyof typeof eventSchemas][],
  ],
);

type BuiltinEventMap = { [K in keyof typeof eventSchemas]: z.output<(typeof eventSchemas)[K]> };

/**
 * Every event type, keyed by name: `HookEventMap["PreToolUse"]` is the PreToolUse event.
 * An interface so a host can add the events it defines with `defineEvent`:
 *
 * @example
 * ```ts
 * declare module "@a3s-lab/hooks-core" {
 *   interface HookEventMap {
 *     DeployStart: z.output<typeof deployStart.schema>;
 *   }
 * }
 * ```
 */
export interface HookEventMap extends BuiltinEventMap {}

/** The canonical event names: the built-in ones plus any a host added to {@link HookEventMap}. */
export type HookEventName = keyof HookEventMap & string;

/** Any event. Narrow it with `event.eventType`. */
export type HookEvent = HookEventMap[HookEventName];

/** Token counts of a generation. See {@link tokenUsageSchema}. */
export type TokenUsage = z.output<typeof tokenUsageSchema>;
/** A tool call the model asked for. See {@link toolCallSchema}. */
export type ToolCall = z.output<typeof toolCallSchema>;
/** The model a generation runs on. See {@link modelConfigSchema}. */
export type ModelConfig = z.output<typeof modelConfigSchema>;
/** One message of the conversation. See {@link messageSchema}. */
export type Message = z.output<typeof messageSchema>;
/** What a tool returned. See {@link toolResultSchema}. */
export type ToolResult = z.output<typeof toolResultSchema>;
/** Where a tool runs. See {@link toolContextSchema}. */
export type ToolContext = z.output<typeof toolContextSchema>;
/** A tool's arguments: any JSON object. */
export type ToolArgs = Record<string, unknown>;

/** The `SessionStart` event, as a hook receives it. */
export type SessionStartEvent = HookEventMap["SessionStart"];
/** The `SessionEnd` event, as a hook receives it. */
export type SessionEndEvent = HookEventMap["SessionEnd"];
/** The `UserPromptSubmit` event, as a hook receives it. */
export type UserPromptSubmitEvent = HookEventMap["UserPromptSubmit"];
/** The `GenerateStart` event, as a hook receives it. */
export type GenerateStartEvent = HookEventMap["GenerateStart"];
/** The `GenerateEnd` event, as a hook receives it. */
export type GenerateEndEvent = HookEventMap["GenerateEnd"];
/** The `PreToolUse` event, as a hook receives it. */
export type PreToolUseEvent = HookEventMap["PreToolUse"];
/** The `PostToolUse` event, as a hook receives it. */
export type PostToolUseEvent = HookEventMap["PostToolUse"];
/** The `PostToolUseFailure` event, as a hook receives it. */
export type PostToolUseFailureEvent = HookEventMap["PostToolUseFailure"];
/** The `PermissionRequest` event, as a hook receives it. */
export type PermissionRequestEvent = HookEventMap["PermissionRequest"];
/** The `PermissionGranted` event, as a hook receives it. */
export type PermissionGrantedEvent = HookEventMap["PermissionGranted"];
/** The `PermissionDenied` event, as a hook receives it. */
export type PermissionDeniedEvent = HookEventMap["PermissionDenied"];
/** The `PreCompact` event, as a hook receives it. */
export type PreCompactEvent = HookEventMap["PreCompact"];
/** The `PostCompact` event, as a hook receives it. */
export type PostCompactEvent = HookEventMap["PostCompact"];
/** The `ContextWarning` event, as a hook receives it. */
export type ContextWarningEvent = HookEventMap["ContextWarning"];
/** The `Stop` event, as a hook receives it. */
export type StopEvent = HookEventMap["Stop"];
/** The `SubagentStart` event, as a hook receives it. */
export type SubagentStartEvent = HookEventMap["SubagentStart"];
/** The `SubagentStop` event, as a hook receives it. */
export type SubagentStopEvent = HookEventMap["SubagentStop"];
/** The `Notification` event, as a hook receives it. */
export type NotificationEvent = HookEventMap["Notification"];
/** The `SkillLoad` event, as a hook receives it. */
export type SkillLoadEvent = HookEventMap["SkillLoad"];
/** The `SkillUnload` event, as a hook receives it. */
export type SkillUnloadEvent = HookEventMap["SkillUnload"];
