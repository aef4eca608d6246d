import { CONTINUE, type HookEvent } from "@a3s-lab/hooks-core";
import { clipText, describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import { interpretResult } from "../../handlers/interpret-result.js";
import type { HookOrigin } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import { type FormatEvent, FormatReader, type HookFormat, isRecord } from "./hook-format.js";

interface WindsurfEvent extends FormatEvent {
  /** A pre-hook: exit code 2 blocks the action. Post-hooks only observe. */
  blocks: boolean;
  /** The event's `tool_info`. */
  toolInfo(event: HookEvent, cwd: string): Record<string, unknown>;
}

type Tool = { tool: string; args: Record<string, unknown> };
type ToolResult = Tool & { result: { output: string } };

const command = (e: HookEvent, cwd: string) => {
  const { args } = e as unknown as Tool;
  return { command_line: args.command ?? "", cwd: typeof args.cwd === "string" ? args.cwd : cwd };
};
const filePath = (e: HookEvent) => ({ file_path: (e as unknown as Tool).args.file_path ?? "" });
/** The edits of a file tool as Windsurf lists them: a Write replaces nothing with its content. */
const edits = (e: HookEvent) => {
  const { tool, args } = e as unknown as Tool;
  const list =
    tool === "Write"
      ? [{ old_string: "", new_string: args.content ?? "" }]
      : Array.isArray(args.edits)
        ? (args.edits as Record<string, unknown>[]).map((x) => ({
            old_string: x.old_string ?? "",
            new_string: x.new_string ?? "",
          }))
        : [{ old_string: args.old_string ?? "", new_string: args.new_string ?? "" }];
  return { file_path: args.file_path ?? "", edits: list };
};
/** `mcp__github__create_issue` → server `github`, tool `create_issue`. */
const mcp = (e: HookEvent) => {
  const { tool, args } = e as unknown as Tool;
  const [, server = "", name = tool] = /^mcp__(.+?)__(.+)$/.exec(tool) ?? [];
  return { mcp_server_name: server, mcp_tool_name: name, mcp_tool_arguments: args };
};
const output = (e: HookEvent) => (e as unknown as ToolResult).result.output;

const FILE_TOOLS = "Write|Edit|MultiEdit";

/**
 * Windsurf's Cascade hook events (docs.windsurf.com/windsurf/cascade/hooks). Every entry here is
 * a row of docs/formats/windsurf.md and has a test.
 */
export const WINDSURF_EVENTS: Readonly<Record<string, WindsurfEvent>> = {
  pre_run_command: { event: "PreToolUse", matcher: "Bash", blocks: true, toolInfo: command },
  post_run_command: { event: "PostToolUse", matcher: "Bash", blocks: false, toolInfo: command },
  pre_read_code: { event: "PreToolUse", matcher: "Read", blocks: true, toolInfo: filePath },
  post_read_code: { event: "PostToolUse", matcher: "Read", blocks: false, toolInfo: filePath },
  pre_write_code: { event: "PreToolUse", matcher: FILE_TOOLS, blocks: true, toolInfo: edits },
  post_write_code: { event: "PostToolUse", matcher: FILE_TOOLS, blocks: false, toolInfo: edits },
  pre_mcp_tool_use: { event: "PreToolUse", matcher: "mcp__*", blocks: true, toolInfo: mcp },
  post_mcp_tool_use: {
    event: "PostToolUse",
    matcher: "mcp__*",
    blocks: false,
    toolInfo: (e) => ({ ...mcp(e), mcp_result: output(e) }),
  },
  pre_user_prompt: {
    event: "UserPromptSubmit",
    blocks: true,
    toolInfo: (e) => ({ user_prompt: (e as { prompt?: string }).prompt ?? "" }),
  },
  post_cascade_response: {
    event: "GenerateEnd",
    blocks: false,
    toolInfo: (e) => ({ response: (e as { response?: { text?: string } }).response?.text ?? "" }),
  },
};

const ENTRY_KEYS = new Set(["command", "show_output", "working_directory", "powershell"]);

function readWindsurfFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("windsurf", ctx);
  reader.unknownFields(doc, [], new Set(["hooks"]));
  for (const [name, spec, list] of reader.events(doc.hooks, WINDSURF_EVENTS, "Windsurf", "hooks")) {
    for (const [i, entry] of list.entries()) {
      const path = ["hooks", name, i];
      if (!isRecord(entry)) {
        reader.problem("error", path, `expected a { command } object, got ${describeValue(entry)}`);
        continue;
      }
      reader.unknownFields(entry, path, ENTRY_KEYS);
      if (entry.show_output !== undefined && typeof entry.show_output !== "boolean") {
        reader.problem(
          "error",
          [...path, "show_output"],
          `expected true or false, got ${describeValue(entry.show_output)} (this hook does not load)`,
        );
        continue;
      }
      const dir = entry.working_directory;
      if (dir !== undefined && (typeof dir !== "string" || dir === "")) {
        reader.problem(
          "error",
          [...path, "working_directory"],
          `expected a directory path, got ${describeValue(dir)} (this hook does not load)`,
        );
        continue;
      }
      reader.command(
        path,
        { command: entry.command, ...(dir !== undefined ? { cwd: dir } : {}) },
        { format: "windsurf", event: name },
        spec,
      );
    }
  }
  reader.refuseOnError();
  return reader.out;
}

/**
 * Cascade's stdin: the event as `agent_action_name`, the conversation as `trajectory_id`, this
 * firing as `execution_id`, an ISO `timestamp`, and the event's own `tool_info`. Cascade reads
 * no JSON answer: exit code 2 blocks a pre-hook's action with stderr as the reason, and stdout
 * is only shown in its UI.
 */
function windsurfDialect(origin: HookOrigin): HookDialect {
  const spec = WINDSURF_EVENTS[origin.event]!;
  return {
    input: (event, { cwd }) => ({
      agent_action_name: origin.event,
      trajectory_id: event.sessionId,
      execution_id: event.eventId,
      timestamp: new Date(event.timestamp).toISOString(),
      tool_info: spec.toolInfo(event, cwd),
    }),
    read: (result, event, limits) => {
      const answered =
        result.error === undefined &&
        !result.timedOut &&
        !result.aborted &&
        (result.exitCode === 0 || result.exitCode === 2);
      if (!answered) return interpretResult(result, event, limits);
      if (result.exitCode !== 2 || !spec.blocks) return CONTINUE;
      const reason =
        clipText(result.stderr.trim()) ||
        clipText(result.stdout.trim()) ||
        "blocked by a Windsurf hook (exit code 2)";
      return { action: "block", reason };
    },
  };
}

/** Windsurf (Cascade): `.windsurf/hooks.json` in the workspace, `~/.codeium/windsurf/hooks.json`. */
export const windsurfFormat: HookFormat = {
  name: "windsurf",
  title: "Windsurf",
  files: { project: [".windsurf/hooks.json"], user: [".codeium/windsurf/hooks.json"] },
  events: WINDSURF_EVENTS,
  matchesPath: (path) =>
    /(?:^|[\\/])(?:\.windsurf|\.codeium[\\/]windsurf)[\\/]hooks\.json$/.test(path),
  read: readWindsurfFile,
  dialect: windsurfDialect,
};
