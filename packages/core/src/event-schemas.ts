import * as z from "zod/mini";

/**
 * The event catalogue as zod schemas. Field names follow seed 000's TypeScript (`tool`, `args`,
 * `result`, `response`, `sessionId`, `timestamp`, `metadata`); token usage keeps the
 * OpenAI-style snake_case object that seed 000's examples read (`usage.total_tokens`).
 *
 * Schemas validate; they never reshape. Extra fields a host adds are kept, because the engine
 * checks events with these schemas but hands hooks the host's own object.
 */

/** Tool arguments, tool inputs: any JSON object. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

export const tokenUsageSchema = z.object({
  prompt_tokens: z.number().check(z.nonnegative()),
  completion_tokens: z.number().check(z.nonnegative()),
  total_tokens: z.number().check(z.nonnegative()),
});

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: jsonObjectSchema,
});

export const modelConfigSchema = z.object({
  name: z.string(),
  provider: z.optional(z.string()),
  temperature: z.optional(z.number()),
  maxTokens: z.optional(z.number()),
});

export const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  toolCallId: z.optional(z.string()),
  toolCalls: z.optional(z.array(toolCallSchema)),
});

export const toolResultSchema = z.object({
  success: z.boolean(),
  output: z.string(),
  exitCode: z.optional(z.number()),
  duration: z.number().check(z.nonnegative()),
});

export const toolContextSchema = z.object({
  workingDirectory: z.string(),
  recentTools: z.array(z.string()),
  tokenUsage: tokenUsageSchema,
});

const base = {
  /** Unique per firing, so a response can be matched to the firing it answers. */
  eventId: z.string().check(z.minLength(1)),
  sessionId: z.string(),
  /** Milliseconds since the epoch. */
  timestamp: z.number(),
  metadata: z.record(z.string(), z.unknown()),
};

function event<N extends string, S extends z.core.$ZodLooseShape>(name: N, shape: S) {
  return z.object({ eventType: z.literal(name), ...base, ...shape });
}

const tool = {
  tool: z.string().check(z.minLength(1)),
  args: jsonObjectSchema,
  toolUseId: z.optional(z.string()),
};

const decision = {
  ...tool,
  /** Who decided: a hook, the user, a policy, or the host's default. */
  decidedBy: z.optional(z.enum(["hook", "user", "policy", "default"])),
  reason: z.optional(z.string()),
};

/** Every event, keyed by its canonical (PascalCase) name. */
export const eventSchemas = {
  SessionStart: event("SessionStart", {
    /** `startup`, `resume`, `clear`, `compact`, … */
    source: z.string(),
    workingDirectory: z.optional(z.string()),
    model: z.optional(modelConfigSchema),
  }),
  SessionEnd: event("SessionEnd", {
    /** `exit`, `clear`, `logout`, `error`, … */
    reason: z.string(),
  }),
  UserPromptSubmit: event("UserPromptSubmit", {
    prompt: z.string(),
  }),
  GenerateStart: event("GenerateStart", {
    prompt: z.string(),
    systemPrompt: z.optional(z.string()),
    model: modelConfigSchema,
    /** Names of the tools offered to the model. */
    tools: z.array(z.string()),
    messages: z.optional(z.array(messageSchema)),
  }),
  GenerateEnd: event("GenerateEnd", {
    prompt: z.string(),
    model: modelConfigSchema,
    response: z.object({
      text: z.string(),
      toolCalls: z.array(toolCallSchema),
      usage: tokenUsageSchema,
      duration: z.number().check(z.nonnegative()),
    }),
  }),
  PreToolUse: event("PreToolUse", {
    ...tool,
    context: z.optional(toolContextSchema),
  }),
  PostToolUse: event("PostToolUse", {
    ...tool,
    result: toolResultSchema,
  }),
  PostToolUseFailure: event("PostToolUseFailure", {
    ...tool,
    error: z.string(),
    exitCode: z.optional(z.number()),
    duration: z.optional(z.number().check(z.nonnegative())),
  }),
  PermissionRequest: event("PermissionRequest", {
    ...tool,
    /** Why the host asks (e.g. "Bash runs commands"). */
    reason: z.optional(z.string()),
  }),
  PermissionGranted: event("PermissionGranted", decision),
  PermissionDenied: event("PermissionDenied", decision),
  PreCompact: event("PreCompact", {
    /** `manual` or `auto`. */
    trigger: z.string(),
    customInstructions: z.optional(z.string()),
    messageCount: z.optional(z.number()),
    tokenCount: z.optional(z.number()),
  }),
  PostCompact: event("PostCompact", {
    trigger: z.string(),
    messagesBefore: z.number(),
    messagesAfter: z.number(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    summary: z.optional(z.string()),
  }),
  ContextWarning: event("ContextWarning", {
    /** What crossed the line, e.g. `threshold`. */
    trigger: z.string(),
    usedTokens: z.number(),
    maxTokens: z.number(),
    /** The fraction of the budget in use that fired the warning, 0 to 1. */
    threshold: z.number(),
  }),
  Stop: event("Stop", {
    /** True when this stop follows a continuation a Stop hook asked for. */
    stopHookActive: z.boolean(),
    reason: z.optional(z.string()),
    responseText: z.optional(z.string()),
  }),
  SubagentStart: event("SubagentStart", {
    subagentId: z.string(),
    subagentType: z.string(),
    description: z.string(),
    prompt: z.optional(z.string()),
  }),
  SubagentStop: event("SubagentStop", {
    subagentId: z.string(),
    subagentType: z.string(),
    success: z.boolean(),
    error: z.optional(z.string()),
    output: z.optional(z.string()),
  }),
  Notification: event("Notification", {
    message: z.string(),
    /** `status`, `error`, `permission_prompt`, `idle`, … */
    notificationType: z.string(),
    level: z.optional(z.enum(["info", "warning", "error"])),
    title: z.optional(z.string()),
  }),
  SkillLoad: event("SkillLoad", {
    skillName: z.string().check(z.minLength(1)),
    path: z.optional(z.string()),
    description: z.optional(z.string()),
  }),
  SkillUnload: event("SkillUnload", {
    skillName: z.string().check(z.minLength(1)),
    path: z.optional(z.string()),
  }),
} as const;

/** One schema for any event, discriminated by `eventType`. */
export const hookEventSchema = z.discriminatedUnion(
  "eventType",
  Object.values(eventSchemas) as unknown as [
    (typeof eventSchemas)[keyof typeof eventSchemas],
    ...(typeof eventSchemas)[keyof typeof eventSchemas][],
  ],
);

/** The canonical event names. */
export type HookEventName = keyof typeof eventSchemas;

/** Every event type, keyed by name: `HookEventMap["PreToolUse"]` is the PreToolUse event. */
export type HookEventMap = { [K in HookEventName]: z.output<(typeof eventSchemas)[K]> };

/** Any event. Narrow it with `event.eventType`. */
export type HookEvent = HookEventMap[HookEventName];

export type TokenUsage = z.output<typeof tokenUsageSchema>;
export type ToolCall = z.output<typeof toolCallSchema>;
export type ModelConfig = z.output<typeof modelConfigSchema>;
export type Message = z.output<typeof messageSchema>;
export type ToolResult = z.output<typeof toolResultSchema>;
export type ToolContext = z.output<typeof toolContextSchema>;
export type ToolArgs = Record<string, unknown>;

export type SessionStartEvent = HookEventMap["SessionStart"];
export type SessionEndEvent = HookEventMap["SessionEnd"];
export type UserPromptSubmitEvent = HookEventMap["UserPromptSubmit"];
export type GenerateStartEvent = HookEventMap["GenerateStart"];
export type GenerateEndEvent = HookEventMap["GenerateEnd"];
export type PreToolUseEvent = HookEventMap["PreToolUse"];
export type PostToolUseEvent = HookEventMap["PostToolUse"];
export type PostToolUseFailureEvent = HookEventMap["PostToolUseFailure"];
export type PermissionRequestEvent = HookEventMap["PermissionRequest"];
export type PermissionGrantedEvent = HookEventMap["PermissionGranted"];
export type PermissionDeniedEvent = HookEventMap["PermissionDenied"];
export type PreCompactEvent = HookEventMap["PreCompact"];
export type PostCompactEvent = HookEventMap["PostCompact"];
export type ContextWarningEvent = HookEventMap["ContextWarning"];
export type StopEvent = HookEventMap["Stop"];
export type SubagentStartEvent = HookEventMap["SubagentStart"];
export type SubagentStopEvent = HookEventMap["SubagentStop"];
export type NotificationEvent = HookEventMap["Notification"];
export type SkillLoadEvent = HookEventMap["SkillLoad"];
export type SkillUnloadEvent = HookEventMap["SkillUnload"];
