import { CONTINUE, HookError, type HookEvent } from "@a3s-lab/hooks-core";
import { clipText, describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import { interpretResult } from "../../handlers/interpret-result.js";
import { linearRegex } from "../../support/linear-regex.js";
import type { HookOrigin } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import { type FormatEvent, FormatReader, type HookFormat, isRecord } from "./hook-format.js";

interface KiroTrigger extends FormatEvent {
  /** Exit code 2 blocks (PreToolUse, UserPromptSubmit). */
  blocks: boolean;
  /** A successful hook's stdout is added to the agent's context. */
  context: boolean;
  /** The trigger's matcher tests the tool name. */
  tool: boolean;
}

/**
 * Kiro's hook triggers (kiro.dev/docs/cli/v3/hooks, the format Kiro IDE 1.x shares). Every entry
 * here is a row of docs/formats/kiro.md and has a test.
 */
export const KIRO_TRIGGERS: Readonly<Record<string, KiroTrigger>> = {
  SessionStart: { event: "SessionStart", blocks: false, context: true, tool: false },
  UserPromptSubmit: { event: "UserPromptSubmit", blocks: true, context: true, tool: false },
  PreToolUse: { event: "PreToolUse", blocks: true, context: false, tool: true },
  PostToolUse: { event: "PostToolUse", blocks: false, context: false, tool: true },
  Stop: { event: "Stop", blocks: false, context: false, tool: false },
};

/** Kiro's names for the engine's tools where they differ; a matcher may use either. */
const KIRO_TOOLS: Readonly<Record<string, string>> = {
  Bash: "execute_bash",
  Read: "fs_read",
  Write: "fs_write",
  Edit: "fs_write",
};
const kiroTool = (tool: string) => (Object.hasOwn(KIRO_TOOLS, tool) ? KIRO_TOOLS[tool]! : tool);

const HOOK_KEYS = new Set(["name", "trigger", "matcher", "action", "timeout", "enabled"]);

function readKiroFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("kiro", ctx);
  reader.unknownFields(doc, [], new Set(["version", "hooks"]));
  if (doc.version !== "v1") {
    reader.problem(
      "warning",
      ["version"],
      `expected "v1", got ${describeValue(doc.version)}; read as v1`,
    );
  }
  if (!Array.isArray(doc.hooks)) {
    reader.problem(
      "error",
      ["hooks"],
      `expected an array of hooks, got ${describeValue(doc.hooks)}`,
    );
    return reader.out;
  }
  for (const [i, entry] of doc.hooks.entries()) {
    const path = ["hooks", i];
    if (!isRecord(entry)) {
      reader.problem(
        "error",
        path,
        `expected a { name, trigger, action } object, got ${describeValue(entry)}`,
      );
      continue;
    }
    reader.unknownFields(entry, path, HOOK_KEYS);
    if (entry.enabled === false) continue;
    if (entry.enabled !== undefined && entry.enabled !== true) {
      reader.problem(
        "error",
        [...path, "enabled"],
        `expected true or false, got ${describeValue(entry.enabled)} (this hook does not load)`,
      );
      continue;
    }
    const trigger = entry.trigger;
    if (typeof trigger !== "string") {
      reader.problem(
        "error",
        [...path, "trigger"],
        `expected a trigger name, got ${describeValue(trigger)} (this hook does not load)`,
      );
      continue;
    }
    if (!Object.hasOwn(KIRO_TRIGGERS, trigger)) {
      reader.problem(
        "warning",
        [...path, "trigger"],
        `"${trigger}" is not a Kiro trigger this engine runs (${Object.keys(KIRO_TRIGGERS).join(", ")}); this hook is ignored`,
      );
      continue;
    }
    const spec = KIRO_TRIGGERS[trigger]!;
    const action = entry.action;
    if (!isRecord(action)) {
      reader.problem(
        "error",
        [...path, "action"],
        `expected a { type, command } object, got ${describeValue(action)} (this hook does not load)`,
      );
      continue;
    }
    if (action.type === "agent") {
      reader.problem(
        "warning",
        [...path, "action", "type"],
        "Kiro's agent actions (a prompt for the model) do not run here, only commands; this hook is ignored",
      );
      continue;
    }
    if (action.type !== "command") {
      reader.problem(
        "error",
        [...path, "action", "type"],
        `expected "command" or "agent", got ${describeValue(action.type)} (this hook does not load)`,
      );
      continue;
    }
    reader.unknownFields(action, [...path, "action"], new Set(["type", "command"]));
    let matcher: string | undefined;
    if (entry.matcher !== undefined && entry.matcher !== "" && entry.matcher !== "*") {
      if (typeof entry.matcher !== "string" || !spec.tool) {
        reader.problem(
          typeof entry.matcher !== "string" ? "error" : "warning",
          [...path, "matcher"],
          typeof entry.matcher !== "string"
            ? `expected a regular expression, got ${describeValue(entry.matcher)} (this hook does not load)`
            : `${trigger} has nothing to match against; the matcher is ignored`,
        );
        if (typeof entry.matcher !== "string") continue;
      } else {
        try {
          linearRegex(entry.matcher);
          matcher = entry.matcher;
        } catch (error) {
          reader.problem(
            "error",
            [...path, "matcher"],
            `${HookError.from(error).message} (this hook does not load)`,
          );
          continue;
        }
      }
    }
    const timeout = reader.timeout(entry, "timeout", path, "seconds");
    if (timeout === false) continue;
    reader.command(
      [...path, "action"],
      {
        command: action.command,
        ...(typeof entry.name === "string" && entry.name !== "" ? { name: entry.name } : {}),
        ...(typeof timeout === "number" ? { timeoutSeconds: timeout } : {}),
      },
      { format: "kiro", event: trigger, ...(matcher !== undefined ? { matcher } : {}) },
      spec,
    );
  }
  reader.refuseOnError();
  return reader.out;
}

/**
 * Kiro's stdin (`session_id`, `hook_event_name`, `cwd`, and for tool triggers `tool_name` in
 * Kiro's names, `tool_input`, `tool_response`; `prompt` on UserPromptSubmit), and its exit
 * codes: 2 blocks where Kiro says it can, with stderr as the reason; a successful hook's stdout
 * is context on SessionStart and UserPromptSubmit.
 */
function kiroDialect(origin: HookOrigin): HookDialect {
  const spec = KIRO_TRIGGERS[origin.event]!;
  return {
    input: (event, { cwd }) => {
      const e = event as { tool?: string; args?: unknown; result?: unknown; prompt?: string };
      return {
        session_id: event.sessionId,
        hook_event_name: origin.event,
        cwd,
        ...(spec.tool && typeof e.tool === "string"
          ? { tool_name: kiroTool(e.tool), tool_input: e.args ?? {} }
          : {}),
        ...(spec.tool && e.result !== undefined ? { tool_response: e.result } : {}),
        ...(origin.event === "UserPromptSubmit" ? { prompt: e.prompt ?? "" } : {}),
      };
    },
    read: (result, event, limits) => {
      const answered =
        result.error === undefined &&
        !result.timedOut &&
        !result.aborted &&
        (result.exitCode === 0 || result.exitCode === 2);
      if (!answered) return interpretResult(result, event, limits);
      if (result.exitCode === 2) {
        if (!spec.blocks) return CONTINUE;
        return {
          action: "block",
          reason: clipText(result.stderr.trim()) || "blocked by a Kiro hook (exit code 2)",
        };
      }
      const out = spec.context && !result.truncated.stdout ? clipText(result.stdout.trim()) : "";
      return out === "" ? CONTINUE : { action: "continue", additionalContext: out };
    },
  };
}

/** The matcher, a regular expression over the tool name: Kiro's (`execute_bash`) or ours (`Bash`). */
function kiroMatcher(origin: HookOrigin): ((event: HookEvent) => boolean) | undefined {
  if (origin.matcher === undefined) return undefined;
  const test = linearRegex(origin.matcher);
  return (event) => {
    const tool = (event as { tool?: unknown }).tool;
    return typeof tool === "string" && (test.test(kiroTool(tool)) || test.test(tool));
  };
}

/** Kiro (CLI v3, IDE 1.x): `.kiro/hooks/*.json` in the workspace and in the home directory. */
export const kiroFormat: HookFormat = {
  name: "kiro",
  title: "Kiro",
  files: { project: [".kiro/hooks/*.json"], user: [".kiro/hooks/*.json"] },
  events: KIRO_TRIGGERS,
  matchesPath: (path) => /(?:^|[\\/])\.kiro[\\/]hooks[\\/][^\\/]+\.json$/.test(path),
  read: readKiroFile,
  dialect: kiroDialect,
  matcher: kiroMatcher,
};
