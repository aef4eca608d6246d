import { eventSpecs, type HookEvent } from "@a3s-lab/hooks-core";
import { CLAUDE_CODE_INPUT_KEY, isBuiltinEvent, snakeCase } from "@a3s-lab/hooks-core/internal";

/** Where the hook runs, for the `cwd` field. */
export interface HookInputOptions {
  /** The working directory the hook is started in. */
  cwd: string;
}

/**
 * What a command hook reads on stdin: Claude Code's snake_case fields, the Rust-agent format's `event`
 * (snake_case event name) and snake_case names, and the event itself with its camelCase fields.
 */
export type HookInput = Record<string, unknown> & {
  /** The event, PascalCase, as Claude Code names it: `PreToolUse`, `Stop`, … */
  hook_event_name: string;
  /** The event in snake_case, as the Rust-agent format names it: `pre_tool_use`. */
  event: string;
  /** The session the event belongs to. */
  session_id: string;
  /** The directory the hook runs in. */
  cwd: string;
};

/**
 * Build the stdin object for an event. Existing Claude Code hook scripts read `tool_name`,
 * `tool_input`, `hook_event_name`, …; the Rust-agent format's scripts read `event`; TypeScript-minded
 * scripts can read the event's own fields (`tool`, `args`, `eventId`, …).
 *
 * @example
 * ```ts
 * toHookInput(createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command: "ls" } }), { cwd: "/repo" });
 * // { hook_event_name: "PreToolUse", event: "pre_tool_use", session_id: "s", cwd: "/repo",
 * //   tool_name: "Bash", tool_input: { command: "ls" }, eventType: "PreToolUse", tool: "Bash", … }
 * ```
 */
export function toHookInput(event: HookEvent, options: HookInputOptions): HookInput {
  const e = event as HookEvent & Record<string, unknown>;
  const input: Record<string, unknown> = {
    hook_event_name: event.eventType,
    event: snakeCase(event.eventType),
    session_id: event.sessionId,
    cwd: options.cwd,
  };
  const metadata = event.metadata as Record<string, unknown> | undefined;
  if (typeof metadata?.transcriptPath === "string") input.transcript_path = metadata.transcriptPath;
  if (typeof metadata?.permissionMode === "string") input.permission_mode = metadata.permissionMode;
  if (eventSpecs[event.eventType].toolEvent) {
    input.tool_name = e.tool;
    input.tool_input = e.args;
    if (e.toolUseId !== undefined) input.tool_use_id = e.toolUseId;
    if (e.decidedBy !== undefined) input.decided_by = e.decidedBy;
  }
  switch (event.eventType) {
    case "PostToolUse":
      input.tool_response = claudeToolResponse(event.tool, event.args, event.result);
      input.tool_result = event.result;
      break;
    case "Notification":
      input.notification_type = event.notificationType;
      break;
    case "Stop":
      input.stop_hook_active = event.stopHookActive;
      break;
    case "SubagentStart":
    case "SubagentStop":
      input.agent_id = input.subagent_id = event.subagentId;
      input.agent_type = input.subagent_type = event.subagentType;
      if (event.eventType === "SubagentStop") input.stop_hook_active = false;
      break;
    case "PreCompact":
      if (event.customInstructions !== undefined)
        input.custom_instructions = event.customInstructions;
      break;
    case "SkillLoad":
    case "SkillUnload":
      input.skill_name = event.skillName;
      break;
    default:
      if (!isBuiltinEvent(event.eventType)) addSnakeCaseFields(input, e);
      break;
  }
  // The event's own fields last: `prompt`, `source`, `reason`, `message`, `trigger`, `error`
  // are the same word in every dialect, and camelCase readers get the whole event.
  Object.assign(input, event);
  // Claude Code sends SessionStart's `model` as the model's id, a string.
  if (event.eventType === "SessionStart" && event.model !== undefined)
    input.model = event.model.name;
  passOnExtraInput(input, metadata?.[CLAUDE_CODE_INPUT_KEY]);
  return input as HookInput;
}

function passOnExtraInput(input: Record<string, unknown>, extra: unknown): void {
  if (extra === null || typeof extra !== "object" || Array.isArray(extra)) return;
  for (const [key, value] of Object.entries(extra)) {
    // Claude Code's own tool_response shape beats the one built from the result.
    if (key === "tool_response" || !Object.hasOwn(input, key)) input[key] = value;
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * PostToolUse's `tool_response` in the shape Claude Code gives for its built-in tools (Bash:
 * `stdout`, `stderr`, `interrupted`; Write and Edit: `filePath`, …; Read: `file`; Glob and Grep:
 * `filenames`, `numFiles`), built from the call's arguments and result, with the result's own
 * fields (`success`, `output`, `duration`, `exitCode`) beside them for readers of those. Another
 * tool's response is the result as it is.
 */
function claudeToolResponse(
  tool: string,
  args: Record<string, unknown>,
  result: { output: string } & Record<string, unknown>,
): Record<string, unknown> {
  const output = result.output;
  const lines = () => (output === "" ? [] : output.split("\n"));
  let shape: Record<string, unknown> | undefined;
  switch (tool) {
    case "Bash":
      shape = { stdout: output, stderr: "", interrupted: false, isImage: false };
      break;
    case "Write":
      shape = { filePath: text(args.file_path), content: text(args.content) };
      break;
    case "Edit":
      shape = {
        filePath: text(args.file_path),
        oldString: text(args.old_string),
        newString: text(args.new_string),
        replaceAll: args.replace_all === true,
      };
      break;
    case "Read":
      shape = { type: "text", file: { filePath: text(args.file_path), content: output } };
      break;
    case "Glob": {
      let files: unknown;
      let truncated = false;
      try {
        const parsed = JSON.parse(output) as { files?: unknown; truncated?: unknown };
        files = parsed.files;
        truncated = parsed.truncated === true;
      } catch {
        files = undefined;
      }
      const filenames = Array.isArray(files) ? files : lines();
      shape = { filenames, numFiles: filenames.length, truncated };
      break;
    }
    case "Grep": {
      const mode = text(args.output_mode) ?? "files_with_matches";
      const found = output === "no matches" ? [] : lines();
      shape =
        mode === "content"
          ? { mode, content: output, numLines: found.length }
          : { mode, filenames: found, numFiles: found.length };
      break;
    }
    case "WebFetch":
      shape = { url: text(args.url), result: output };
      break;
  }
  return shape === undefined ? result : { ...shape, ...result };
}

/** The parts of a zod definition the snake_case walk reads (zod and zod/mini share them). */
interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
}

/**
 * `value` with the keys its schema declares in snake_case, all the way down; what the schema
 * does not declare (a tool's input, a record, a host's extra field) is passed as it is, since
 * those keys are data, not field names.
 */
function snakeCased(value: unknown, def: Def): unknown {
  if (def.innerType) return snakeCased(value, def.innerType._zod.def);
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element._zod.def;
    return value.map((item) => snakeCased(item, element));
  }
  if (def.type !== "object" || !def.shape || value === null || typeof value !== "object") {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
    out[field ? snakeCase(key) : key] = field ? snakeCased(item, field._zod.def) : item;
  }
  return out;
}

const BASE_FIELDS = new Set(["eventType", "eventId", "sessionId", "timestamp", "metadata"]);

/**
 * A defined event (`defineEvent`, `claudeCodeEvents`) reaches a command hook the way Claude Code
 * sends it: each of its own fields under its snake_case name (`teammateName` → `teammate_name`),
 * read from its schema, so no event needs a case of its own here.
 */
function addSnakeCaseFields(input: Record<string, unknown>, event: Record<string, unknown>): void {
  const shape = (eventSpecs[event.eventType as "Stop"].schema._zod.def as Def).shape ?? {};
  for (const [key, field] of Object.entries(shape)) {
    const name = snakeCase(key);
    if (BASE_FIELDS.has(key) || event[key] === undefined || Object.hasOwn(input, name)) continue;
    input[name] = snakeCased(event[key], field._zod.def);
  }
}
