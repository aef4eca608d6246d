import {
  type HookEvent,
  type HookEventName,
  hookEventNames,
  resolveEventName,
  safeCreateEvent,
} from "@a3s-lab/hooks-core";
import {
  CLAUDE_CODE_INPUT_KEY,
  claudeCodeExtraInput,
  specOf,
  unknownEventMessage,
} from "@a3s-lab/hooks-core/internal";
import { CliError } from "./cli-error.js";

const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
const model = { name: "test-model" };
const tool = { tool: "Bash", args: {} };

/** The smallest valid fields of each event, so `a3s-hooks test Stop` works with no input. */
const DEFAULTS: Partial<Record<HookEventName, Record<string, unknown>>> = {
  SessionStart: { source: "startup" },
  SessionEnd: { reason: "exit" },
  UserPromptSubmit: { prompt: "" },
  GenerateStart: { prompt: "", model, tools: [] },
  GenerateEnd: {
    prompt: "",
    model,
    response: { text: "", toolCalls: [], usage, duration: 0 },
  },
  PreToolUse: tool,
  PostToolUse: { ...tool, result: { success: true, output: "", duration: 0 } },
  PostToolUseFailure: { ...tool, error: "the tool failed" },
  PermissionRequest: tool,
  PermissionGranted: tool,
  PermissionDenied: tool,
  PreCompact: { trigger: "manual" },
  PostCompact: {
    trigger: "manual",
    messagesBefore: 0,
    messagesAfter: 0,
    tokensBefore: 0,
    tokensAfter: 0,
  },
  ContextWarning: { trigger: "threshold", usedTokens: 0, maxTokens: 0, threshold: 0.8 },
  Stop: { stopHookActive: false },
  SubagentStart: { subagentId: "subagent-1", subagentType: "general", description: "" },
  SubagentStop: { subagentId: "subagent-1", subagentType: "general", success: true },
  Notification: { message: "", notificationType: "status" },
  SkillLoad: { skillName: "skill" },
  SkillUnload: { skillName: "skill" },
};

/** Claude Code's stdin names that are not simply the camelCase of the event's own field names. */
const RENAMES: Record<string, string> = {
  tool_name: "tool",
  tool_input: "args",
  agent_id: "subagentId",
  agent_type: "subagentType",
};
/** stdin fields that describe the firing, not the event. */
const DROPPED = new Set(["hook_event_name", "event", "cwd", "eventType", "tool_result"]);

/** Claude Code's snake_case stdin names are the events' camelCase fields: `teammate_name` → `teammateName`. */
const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The canonical event name for the CLI's `<Event>` argument, or a usage error. */
export function eventNameArgument(name: string): HookEventName {
  const canonical = resolveEventName(name);
  if (!canonical) {
    throw new CliError("USAGE", unknownEventMessage(name), `events: ${hookEventNames.join(", ")}`);
  }
  return canonical;
}

/** The event's own field names, from its schema. */
function fieldNames(name: HookEventName): Set<string> {
  const shape = (specOf(name)?.schema as { _zod?: { def?: { shape?: object } } } | undefined)?._zod
    ?.def?.shape;
  return new Set(Object.keys(shape ?? {}));
}

/**
 * Turn what a user gives `a3s-hooks test` into event fields: either the event's own fields
 * (`tool`, `args`, …) or a captured Claude Code stdin payload (`tool_name`, `tool_input`, …),
 * exactly as Claude Code sends it: SessionStart's `model` string is the model's name, and every
 * field the event has no field for is kept (in `metadata`, under `claudeCodeInput`) and reaches
 * command hooks' stdin as it came, never refused.
 */
export function eventFieldsFromInput(
  input: Record<string, unknown>,
  name?: HookEventName,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  const own = name !== undefined ? fieldNames(name) : undefined;
  const used = new Set<string>();
  for (const [key, value] of Object.entries(input)) {
    if (DROPPED.has(key)) continue;
    const field = RENAMES[key] ?? camelCase(key);
    if (
      own !== undefined &&
      key !== "tool_response" &&
      key !== "metadata" &&
      !own.has(field) &&
      !["sessionId", "transcriptPath", "permissionMode", "eventId", "timestamp"].includes(field)
    ) {
      continue; // kept whole below, under its own name
    }
    if (key !== "tool_response") used.add(key);
    if (key === "transcript_path") metadata.transcriptPath = value;
    else if (key === "permission_mode") metadata.permissionMode = value;
    else if (key === "tool_response") {
      const r = value as Record<string, unknown> | null;
      // Claude Code's tool_response is whatever the tool returned; ours is a result record.
      out.result =
        r && typeof r === "object" && typeof r.success === "boolean" && typeof r.output === "string"
          ? { duration: 0, ...r }
          : {
              success: true,
              output: typeof value === "string" ? value : JSON.stringify(value),
              duration: 0,
            };
    } else if (name === "SessionStart" && key === "model" && typeof value === "string") {
      // Claude Code sends the model's id; the event's model is an object with its name.
      out.model = { name: value };
    } else out[field] = value;
  }
  const extra = own !== undefined ? claudeCodeExtraInput(input, used) : undefined;
  if (extra !== undefined) metadata[CLAUDE_CODE_INPUT_KEY] = extra;
  if (Object.keys(metadata).length > 0) {
    out.metadata = { ...(out.metadata as Record<string, unknown> | undefined), ...metadata };
  }
  return out;
}

export interface TestEventOptions {
  input?: Record<string, unknown>;
  tool?: string;
  args?: Record<string, unknown>;
}

/** Build and validate the event `a3s-hooks test` fires. */
export function buildTestEvent(name: HookEventName, options: TestEventOptions): HookEvent {
  const fields: Record<string, unknown> = {
    sessionId: "a3s-hooks-test",
    ...DEFAULTS[name],
    ...(options.input ? eventFieldsFromInput(options.input, name) : {}),
  };
  if (options.tool !== undefined) fields.tool = options.tool;
  if (options.args !== undefined) fields.args = options.args;
  const result = safeCreateEvent(name, fields);
  if (!result.success) {
    throw new CliError(
      "USAGE",
      `the ${name} event is invalid: ${result.error.message}`,
      "check --input, --tool and --args",
    );
  }
  return result.data as HookEvent;
}
