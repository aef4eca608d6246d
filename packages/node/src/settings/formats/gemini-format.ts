import { CONTINUE, HookError, type HookEvent, type HookResponse } from "@a3s-lab/hooks-core";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import { linearRegex } from "../../support/linear-regex.js";
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

/** How Gemini CLI reads an event's answer. */
type GeminiAnswer = "tool" | "result" | "turn" | "retry" | "advisory";

interface GeminiEvent extends FormatEvent {
  answer: GeminiAnswer;
  /** True when the group's `matcher` is a tool-name pattern. */
  tools?: boolean;
  input(event: HookEvent): Record<string, unknown>;
}

/** Our tool names and Gemini CLI's, for the built-in tools both have. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "run_shell_command",
  Read: "read_file",
  Write: "write_file",
  Edit: "replace",
  Glob: "glob",
  Grep: "search_file_content",
  LS: "list_directory",
  WebFetch: "web_fetch",
  WebSearch: "google_web_search",
};

/** The name Gemini CLI gives a tool (MCP tools are `mcp__<server>__<tool>` in both). */
export const geminiToolName = (tool: string): string =>
  Object.hasOwn(TOOL_NAMES, tool) ? TOOL_NAMES[tool]! : tool;

type Tool = { tool: string; args: Record<string, unknown> };

const toolInput = (e: HookEvent) => {
  const { tool, args } = e as unknown as Tool;
  return { tool_name: geminiToolName(tool), tool_input: args };
};

/**
 * Gemini CLI's events (its hooks reference, docs/hooks/reference.md). Every entry here is a row
 * of docs/formats/gemini.md and has a test.
 */
export const GEMINI_EVENTS: Readonly<Record<string, GeminiEvent>> = {
  BeforeTool: { event: "PreToolUse", answer: "tool", tools: true, input: toolInput },
  AfterTool: {
    event: "PostToolUse",
    answer: "result",
    tools: true,
    input: (e) => {
      const { result } = e as unknown as { result: { output: string; success?: boolean } };
      const response: Record<string, unknown> = {
        llmContent: result.output,
        returnDisplay: result.output,
      };
      if (result.success === false) response.error = result.output;
      return { ...toolInput(e), tool_response: response };
    },
  },
  BeforeAgent: {
    event: "UserPromptSubmit",
    answer: "turn",
    input: (e) => ({ prompt: (e as { prompt?: string }).prompt ?? "" }),
  },
  AfterAgent: {
    event: "Stop",
    answer: "retry",
    input: (e) => {
      const stop = e as { stopHookActive?: boolean; responseText?: string };
      return {
        prompt: "",
        prompt_response: stop.responseText ?? "",
        stop_hook_active: stop.stopHookActive === true,
      };
    },
  },
  SessionStart: {
    event: "SessionStart",
    answer: "advisory",
    input: (e) => ({ source: (e as { source?: string }).source ?? "startup" }),
  },
  SessionEnd: {
    event: "SessionEnd",
    answer: "advisory",
    input: (e) => ({ reason: (e as { reason?: string }).reason ?? "other" }),
  },
  Notification: {
    event: "Notification",
    answer: "advisory",
    input: (e) => {
      const n = e as { message?: string; notificationType?: string };
      return { notification_type: n.notificationType, message: n.message ?? "", details: {} };
    },
  },
  PreCompress: {
    event: "PreCompact",
    answer: "advisory",
    input: (e) => ({ trigger: (e as { trigger?: string }).trigger ?? "auto" }),
  },
};

const GROUP_KEYS = new Set(["matcher", "sequential", "hooks"]);
const HOOK_KEYS = new Set(["type", "command", "name", "timeout", "description"]);

function readGeminiFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("gemini", ctx);
  const hooks = doc.hooks;
  // A Gemini settings.json without hooks is fine: it configures the rest of Gemini CLI.
  if (hooks === undefined) return reader.out;
  for (const [name, spec, groups] of reader.events(
    hooks,
    GEMINI_EVENTS,
    "Gemini CLI",
    "{ matcher, hooks } groups",
  )) {
    for (const [g, group] of groups.entries()) {
      const at = ["hooks", name, g];
      if (!isRecord(group) || !Array.isArray(group.hooks)) {
        reader.problem(
          "error",
          at,
          `expected a { matcher, hooks: [...] } group, got ${describeValue(group)}`,
        );
        continue;
      }
      reader.unknownFields(group, at, GROUP_KEYS);
      const matcher = readMatcher(reader, group.matcher, [...at, "matcher"], spec);
      if (matcher === false) continue;
      for (const [h, entry] of group.hooks.entries()) {
        const path = [...at, "hooks", h];
        if (!isRecord(entry)) {
          reader.problem(
            "error",
            path,
            `expected a { type, command } object, got ${describeValue(entry)}`,
          );
          continue;
        }
        if (entry.type !== "command") {
          reader.problem(
            "error",
            [...path, "type"],
            `expected "command" (the only type Gemini CLI runs), got ${describeValue(entry.type)} (this hook does not load)`,
          );
          continue;
        }
        reader.unknownFields(entry, path, HOOK_KEYS);
        const timeout = reader.timeout(entry, "timeout", path, "milliseconds");
        if (timeout === false) continue;
        const name_ = typeof entry.name === "string" ? entry.name : undefined;
        reader.command(
          path,
          {
            command: entry.command,
            ...(typeof timeout === "number" ? { timeoutSeconds: timeout / 1000 } : {}),
            ...(name_ !== undefined ? { name: name_ } : {}),
          },
          { format: "gemini", event: name, ...(matcher !== undefined ? { matcher } : {}) },
          spec,
        );
      }
    }
  }
  return reader.out;
}

/** The group's matcher: a tool-name pattern on tool events, ignored (aloud) elsewhere. */
function readMatcher(
  reader: FormatReader,
  matcher: unknown,
  path: (string | number)[],
  spec: GeminiEvent,
): string | undefined | false {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
  if (typeof matcher !== "string") {
    reader.problem(
      "error",
      path,
      `expected a string, got ${describeValue(matcher)} (this group does not load)`,
    );
    return false;
  }
  if (!spec.tools) {
    reader.problem(
      "warning",
      path,
      "only BeforeTool and AfterTool matchers are read here; ignored",
    );
    return undefined;
  }
  try {
    linearRegex(matcher);
  } catch (error) {
    reader.problem("error", path, `${(error as Error).message} (this group does not load)`);
    return false;
  }
  return matcher;
}

/** Gemini CLI's answer: `decision`, `reason`, `continue`, `stopReason`, `systemMessage`, `hookSpecificOutput`. */
function readGeminiJson(
  spec: GeminiEvent,
  answer: Record<string, unknown>,
): HookResponse | HookError {
  const fields: Record<string, string | undefined> = {};
  for (const key of ["reason", "stopReason", "systemMessage"]) {
    const value = stringField(answer, key);
    if (HookError.is(value)) return value;
    fields[key] = value;
  }
  const decision = answer.decision;
  if (decision !== undefined && !["allow", "deny", "block"].includes(decision as string)) {
    return new HookError(
      "INVALID_OUTPUT",
      `decision: expected "allow", "deny" or "block", got ${describeValue(decision)}`,
    );
  }
  const specific = isRecord(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  const context = stringField(specific, "additionalContext");
  if (HookError.is(context)) return context;
  const extra: { systemMessage?: string; suppressOutput?: boolean } = {};
  if (fields.systemMessage) extra.systemMessage = fields.systemMessage;
  if (answer.suppressOutput === true) extra.suppressOutput = true;
  if (spec.answer === "advisory") {
    // Gemini CLI ignores `decision` and `continue` here; context and messages still count.
    return { action: "continue", ...extra, ...(context ? { additionalContext: context } : {}) };
  }
  const denied = decision === "deny" || decision === "block";
  const reason = fields.reason || `denied by a Gemini CLI hook`;
  if (answer.continue === false && spec.answer !== "retry") {
    const stopTurn = {
      reason: fields.stopReason ?? fields.reason ?? "stopped by a Gemini CLI hook",
    };
    if (spec.answer === "result") return { action: "continue", ...extra, stopTurn };
    return { action: "block", reason: stopTurn.reason, ...extra, stopTurn };
  }
  switch (spec.answer) {
    case "tool": {
      if (denied) return { action: "block", reason, ...extra };
      const input = specific.tool_input;
      if (input !== undefined && !isRecord(input)) {
        return new HookError(
          "INVALID_OUTPUT",
          `hookSpecificOutput.tool_input: expected an object, got ${describeValue(input)}`,
        );
      }
      return {
        action: "continue",
        ...extra,
        ...(input ? { modified: { args: input } } : {}),
        ...(context ? { additionalContext: context } : {}),
      };
    }
    case "result": {
      // A denied result is hidden from the model: the reason replaces it.
      const replaced = stringField(specific, "tool_output");
      if (HookError.is(replaced)) return replaced;
      const output = denied ? reason : replaced;
      return {
        action: "continue",
        ...extra,
        ...(output !== undefined ? { modified: { result: { output } } } : {}),
        ...(context ? { additionalContext: context } : {}),
      };
    }
    case "turn":
      if (denied) return { action: "block", reason, ...extra };
      return { action: "continue", ...extra, ...(context ? { additionalContext: context } : {}) };
    case "retry":
      // AfterAgent's deny rejects the answer: the reason goes to the agent as its next prompt.
      if (denied) return { action: "block", reason, ...extra };
      return { action: "continue", ...extra };
  }
}

function geminiDialect(origin: HookOrigin): HookDialect {
  const spec = GEMINI_EVENTS[origin.event]!;
  return {
    input: (event, { cwd }) => {
      const metadata = event.metadata as Record<string, unknown> | undefined;
      return {
        session_id: event.sessionId,
        transcript_path:
          typeof metadata?.transcriptPath === "string" ? metadata.transcriptPath : "",
        cwd,
        hook_event_name: origin.event,
        timestamp: new Date(event.timestamp).toISOString(),
        ...spec.input(event),
      };
    },
    read: (result, event, limits) =>
      readAnswer(result, event, limits, {
        agent: "Gemini CLI",
        exit2: (stderr) => {
          const reason = stderr || "blocked by a Gemini CLI hook (exit code 2)";
          if (spec.answer === "advisory") return CONTINUE;
          // On AfterTool, exit 2 hides the result: stderr replaces it.
          if (spec.answer === "result")
            return { action: "continue", modified: { result: { output: reason } } };
          return { action: "block", reason };
        },
        json: (answer) => readGeminiJson(spec, answer),
      }),
  };
}

/** The hook's matcher, tested against the tool's Gemini CLI name, as Gemini CLI tests it. */
function geminiMatcher(origin: HookOrigin): ((event: HookEvent) => boolean) | undefined {
  if (origin.matcher === undefined) return undefined;
  const pattern = linearRegex(origin.matcher);
  return (event) => pattern.test(geminiToolName((event as unknown as Tool).tool));
}

/** Gemini CLI: `.gemini/settings.json` in the project and in the home directory. */
export const geminiFormat: HookFormat = {
  name: "gemini",
  title: "Gemini CLI",
  files: { project: [".gemini/settings.json"], user: [".gemini/settings.json"] },
  events: GEMINI_EVENTS,
  matchesPath: (path) => /(?:^|[\\/])\.gemini[\\/]settings\.json$/.test(path),
  read: readGeminiFile,
  dialect: geminiDialect,
  matcher: geminiMatcher,
};
