import { CONTINUE, HookError, type HookEvent, type HookResponse } from "@a3s-lab/hooks-core";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import type { HookOrigin } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import {
  type FormatEvent,
  FormatReader,
  type HookFormat,
  isRecord,
  readAnswer,
  stringField,
} from "./hook-format.js";

/** How Cursor reads an event's answer. */
type CursorAnswer = "permission" | "continue" | "followup" | "none";

interface CursorEvent extends FormatEvent {
  answer: CursorAnswer;
  /** The event's own stdin fields. */
  input(event: HookEvent): Record<string, unknown>;
}

type Tool = { tool: string; args: Record<string, unknown> };
type ToolResult = Tool & { result: { output: string; duration?: number } };

/** An MCP tool's own name, as Cursor's `tool_name` gives it: `mcp__github__create_issue` → `create_issue`. */
const mcpToolName = (tool: string) => tool.replace(/^mcp__.*?__/, "");

/**
 * Cursor's agent events (hooks reference of Cursor 1.7 through 2.x). Every entry here is a row
 * of docs/formats/cursor.md and has a test.
 */
export const CURSOR_EVENTS: Readonly<Record<string, CursorEvent>> = {
  beforeShellExecution: {
    event: "PreToolUse",
    matcher: "Bash",
    answer: "permission",
    input: (e) => ({ command: (e as unknown as Tool).args.command ?? "" }),
  },
  beforeMCPExecution: {
    event: "PreToolUse",
    matcher: "mcp__*",
    answer: "permission",
    input: (e) => {
      const { tool, args } = e as unknown as Tool;
      return { tool_name: mcpToolName(tool), tool_input: args };
    },
  },
  beforeReadFile: {
    event: "PreToolUse",
    matcher: "Read",
    answer: "permission",
    input: (e) => ({ file_path: (e as unknown as Tool).args.file_path ?? "", attachments: [] }),
  },
  afterShellExecution: {
    event: "PostToolUse",
    matcher: "Bash",
    answer: "none",
    input: (e) => {
      const { args, result } = e as unknown as ToolResult;
      return {
        command: args.command ?? "",
        output: result.output,
        ...(result.duration !== undefined ? { duration: result.duration } : {}),
      };
    },
  },
  afterMCPExecution: {
    event: "PostToolUse",
    matcher: "mcp__*",
    answer: "none",
    input: (e) => {
      const { tool, args, result } = e as unknown as ToolResult;
      return {
        tool_name: mcpToolName(tool),
        tool_input: args,
        result_json: result.output,
        ...(result.duration !== undefined ? { duration: result.duration } : {}),
      };
    },
  },
  afterFileEdit: {
    event: "PostToolUse",
    matcher: "Write|Edit",
    answer: "none",
    input: (e) => {
      const { tool, args } = e as unknown as ToolResult;
      const edits =
        tool === "Write"
          ? [{ old_string: "", new_string: args.content ?? "" }]
          : [{ old_string: args.old_string ?? "", new_string: args.new_string ?? "" }];
      return { file_path: args.file_path ?? "", edits };
    },
  },
  beforeSubmitPrompt: {
    event: "UserPromptSubmit",
    answer: "continue",
    input: (e) => ({ prompt: (e as { prompt?: string }).prompt ?? "", attachments: [] }),
  },
  afterAgentResponse: {
    event: "GenerateEnd",
    answer: "none",
    input: (e) => ({ text: (e as { response?: { text?: string } }).response?.text ?? "" }),
  },
  stop: {
    event: "Stop",
    answer: "followup",
    input: (e) => ({
      status: "completed",
      loop_count: (e as { stopHookActive?: boolean }).stopHookActive ? 1 : 0,
    }),
  },
};

const ENTRY_KEYS = new Set(["command", "timeout", "failClosed", "type", "matcher"]);

function readCursorFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("cursor", ctx);
  reader.version(doc);
  for (const [name, spec, list] of reader.events(doc.hooks, CURSOR_EVENTS, "Cursor", "hooks")) {
    for (const [i, entry] of list.entries()) {
      const path = ["hooks", name, i];
      if (!isRecord(entry)) {
        reader.problem("error", path, `expected a { command } object, got ${describeValue(entry)}`);
        continue;
      }
      if (entry.type !== undefined && entry.type !== "command") {
        reader.problem(
          "warning",
          [...path, "type"],
          `Cursor's ${describeValue(entry.type)} hooks do not run here, only commands (this hook does not load)`,
        );
        continue;
      }
      reader.unknownFields(entry, path, ENTRY_KEYS);
      if (entry.matcher !== undefined) {
        reader.problem(
          "warning",
          [...path, "matcher"],
          `${name} already names its tool here; the matcher is ignored`,
        );
      }
      const timeout = reader.timeout(entry, "timeout", path, "seconds");
      if (timeout === false) continue;
      if (entry.failClosed !== undefined && typeof entry.failClosed !== "boolean") {
        reader.problem(
          "error",
          [...path, "failClosed"],
          `expected true or false, got ${describeValue(entry.failClosed)} (this hook does not load)`,
        );
        continue;
      }
      reader.command(
        path,
        {
          command: entry.command,
          ...(typeof timeout === "number" ? { timeoutSeconds: timeout } : {}),
          ...(entry.failClosed === true ? { failBehavior: "block" as const } : {}),
        },
        { format: "cursor", event: name },
        spec,
      );
    }
  }
  return reader.out;
}

/** Cursor's answer to a hook: `permission`, `user_message`, `agent_message`, `continue`, `followup_message`. */
function readCursorJson(
  spec: CursorEvent,
  answer: Record<string, unknown>,
): HookResponse | HookError {
  // Cursor 1.7 wrote the messages in camelCase; later versions in snake_case. Both are read.
  const user = stringField(answer, "user_message") ?? stringField(answer, "userMessage");
  if (HookError.is(user)) return user;
  const agent = stringField(answer, "agent_message") ?? stringField(answer, "agentMessage");
  if (HookError.is(agent)) return agent;
  const shown = user !== undefined && user !== "" ? { systemMessage: user } : {};
  switch (spec.answer) {
    case "permission": {
      const permission = answer.permission;
      if (permission === undefined) return { action: "continue", ...shown };
      if (permission === "deny") {
        const reason = agent || user || "denied by a Cursor hook";
        return { action: "block", reason, ...shown };
      }
      if (permission === "allow" || permission === "ask") {
        return {
          action: "continue",
          permission,
          ...shown,
          ...(agent ? { additionalContext: agent } : {}),
        };
      }
      return new HookError(
        "INVALID_OUTPUT",
        `permission: expected "allow", "deny" or "ask", got ${describeValue(permission)}`,
      );
    }
    case "continue": {
      const go = answer.continue;
      if (go === undefined || go === true) return { action: "continue", ...shown };
      if (go === false) {
        return { action: "block", reason: user || "blocked by a Cursor hook", ...shown };
      }
      return new HookError(
        "INVALID_OUTPUT",
        `continue: expected true or false, got ${describeValue(go)}`,
      );
    }
    case "followup": {
      const followup = stringField(answer, "followup_message");
      if (HookError.is(followup)) return followup;
      // Stop's block means "do not stop: go on with this": Cursor's follow-up message.
      return followup ? { action: "block", reason: followup } : CONTINUE;
    }
    case "none":
      return CONTINUE;
  }
}

function cursorDialect(origin: HookOrigin): HookDialect {
  const spec = CURSOR_EVENTS[origin.event]!;
  return {
    input: (event, { cwd }) => {
      const metadata = event.metadata as Record<string, unknown> | undefined;
      return {
        hook_event_name: origin.event,
        conversation_id: event.sessionId,
        generation_id: event.eventId,
        workspace_roots: [cwd],
        cwd,
        ...(typeof metadata?.transcriptPath === "string"
          ? { transcript_path: metadata.transcriptPath }
          : {}),
        ...spec.input(event),
      };
    },
    read: (result, event, limits) =>
      readAnswer(result, event, limits, {
        agent: "Cursor",
        // Exit code 2 denies, as a `permission: "deny"` would; elsewhere it is Cursor's block.
        exit2: (stderr) =>
          spec.answer === "none"
            ? CONTINUE
            : { action: "block", reason: stderr || "blocked by a Cursor hook (exit code 2)" },
        json: (answer) => readCursorJson(spec, answer),
      }),
  };
}

/** Cursor: `.cursor/hooks.json` in the project and in the home directory. */
export const cursorFormat: HookFormat = {
  name: "cursor",
  title: "Cursor",
  files: { project: [".cursor/hooks.json"], user: [".cursor/hooks.json"] },
  events: CURSOR_EVENTS,
  matchesPath: (path) => /(?:^|[\\/])\.cursor[\\/]hooks\.json$/.test(path),
  read: readCursorFile,
  dialect: cursorDialect,
};
