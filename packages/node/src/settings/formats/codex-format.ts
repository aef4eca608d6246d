import { CONTINUE, HookError, type HookEvent } from "@a3s-lab/hooks-core";
import { clipText, compileMatcher, describeValue } from "@a3s-lab/hooks-core/internal";
import { parse as parseToml, TomlError } from "smol-toml";
import { claudeCodeDialect, type HookDialect } from "../../handlers/hook-dialect.js";
import { linearRegex } from "../../support/linear-regex.js";
import type { HookOrigin } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import {
  type FormatEvent,
  type FormatParseResult,
  FormatReader,
  type HookFormat,
  isRecord,
} from "./hook-format.js";

interface CodexEvent extends FormatEvent {
  /** False where Codex reads no matcher (a matcher there is ignored, with a warning). */
  matches: boolean;
  /**
   * False where Codex gives exit code 2 no blocking meaning: the hook's stderr is shown to the
   * user and the event goes on.
   */
  exit2Blocks: boolean;
}

/**
 * Codex's events (developers.openai.com/codex/hooks). Codex names them as we do, so each runs
 * as the event of the same name. Every entry here is a row of docs/formats/codex.md and has a
 * test.
 */
export const CODEX_EVENTS: Readonly<Record<string, CodexEvent>> = {
  SessionStart: { event: "SessionStart", matches: true, exit2Blocks: false },
  PreToolUse: { event: "PreToolUse", matches: true, exit2Blocks: true },
  PermissionRequest: { event: "PermissionRequest", matches: true, exit2Blocks: true },
  PostToolUse: { event: "PostToolUse", matches: true, exit2Blocks: true },
  UserPromptSubmit: { event: "UserPromptSubmit", matches: false, exit2Blocks: true },
  Stop: { event: "Stop", matches: false, exit2Blocks: true },
  SubagentStop: { event: "SubagentStop", matches: true, exit2Blocks: false },
  PreCompact: { event: "PreCompact", matches: true, exit2Blocks: false },
  PostCompact: { event: "PostCompact", matches: true, exit2Blocks: false },
};

/**
 * Our tools that Codex does with `apply_patch`: a Codex matcher naming `apply_patch` takes them
 * too. Every other tool is named alike in both (`Bash`; MCP tools `mcp__<server>__<tool>`).
 */
const APPLY_PATCH_TOOLS = new Set(["Edit", "Write", "MultiEdit"]);

const GROUP_KEYS = new Set(["matcher", "hooks"]);
// `statusMessage` is Codex's spinner text while the hook runs: known, and not shown here.
const HOOK_KEYS = new Set(["type", "command", "timeout", "statusMessage"]);

const isToml = (path: string) => /\.toml$/i.test(path);

/**
 * A `config.toml` parsed as TOML (a large integer elsewhere in it stays a bigint rather than
 * failing the file); any other path is JSON, read by the loader.
 */
function parseCodexFile(text: string, path: string): FormatParseResult | undefined {
  if (!isToml(path)) return undefined;
  try {
    return { ok: true, value: parseToml(text, { integersAsBigInt: "asNeeded" }) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const why = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
    return {
      ok: false,
      message: `invalid TOML at line ${error.line}, column ${error.column}: ${why}`,
      line: error.line,
      column: error.column,
    };
  }
}

/**
 * Codex's `config.toml` configures all of Codex; only its `[hooks]` tables are read, in the
 * same shape as `hooks.json`. A file without them holds no hooks and no problem. `[hooks.state]`
 * is where Codex records which hooks the user reviewed and turned off, not an event.
 */
function readCodexToml(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  if (doc.hooks === undefined) return { hooks: [], options: {}, problems: [] };
  if (!isRecord(doc.hooks)) return readCodexFile({ hooks: doc.hooks }, ctx);
  const { state: _state, ...hooks } = doc.hooks;
  return readCodexFile({ hooks }, ctx);
}

function readCodexFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("codex", ctx);
  reader.unknownFields(doc, [], new Set(["hooks"]));
  for (const [name, spec, groups] of reader.events(
    doc.hooks,
    CODEX_EVENTS,
    "Codex",
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
      const matcher = readMatcher(reader, group.matcher, [...at, "matcher"], name, spec);
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
            `expected "command" (the only type Codex runs), got ${describeValue(entry.type)} (this hook does not load)`,
          );
          continue;
        }
        reader.unknownFields(entry, path, HOOK_KEYS);
        const timeout = reader.timeout(entry, "timeout", path, "seconds");
        if (timeout === false) continue;
        reader.command(
          path,
          {
            command: entry.command,
            ...(typeof timeout === "number" ? { timeoutSeconds: timeout } : {}),
          },
          { format: "codex", event: name, ...(matcher !== undefined ? { matcher } : {}) },
          spec,
        );
      }
    }
  }
  reader.refuseOnError();
  return reader.out;
}

/**
 * The group's matcher: tested as a Claude Code matcher (a name, `A|B`, or a regular expression)
 * against the tool name, or SessionStart's source; on UserPromptSubmit and Stop, where Codex
 * reads none, ignored aloud.
 */
function readMatcher(
  reader: FormatReader,
  matcher: unknown,
  path: (string | number)[],
  name: string,
  spec: CodexEvent,
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
  if (!spec.matches) {
    reader.problem("warning", path, `Codex reads no matcher on ${name}; ignored`);
    return undefined;
  }
  try {
    compileMatcher(spec.event, matcher, ["matcher"], { regex: linearRegex });
  } catch (error) {
    const message = HookError.from(error).message.replace(/^[^:]*: /, "");
    reader.problem("error", path, `${message} (this group does not load)`);
    return false;
  }
  return matcher;
}

/**
 * Claude Code's stdin, which Codex's follows, with Codex's own names: the event as the file
 * names it, `model` and `turn_id` when the host gives them, `transcript_path` null when it keeps
 * none. Answers are read by Claude Code's rules, but exit code 2 blocks only where Codex says it
 * does (PreToolUse, PermissionRequest, UserPromptSubmit, Stop; on PostToolUse, as in Claude Code,
 * stderr goes to the model).
 */
function codexDialect(origin: HookOrigin): HookDialect {
  return {
    input: (event, options) => {
      const input = claudeCodeDialect.input(event, options);
      const metadata = event.metadata as Record<string, unknown> | undefined;
      input.hook_event_name = origin.event;
      if (input.transcript_path === undefined) input.transcript_path = null;
      if (typeof input.model !== "string" && typeof metadata?.model === "string")
        input.model = metadata.model;
      if (typeof metadata?.turnId === "string") input.turn_id = metadata.turnId;
      return input;
    },
    read: (result, event, limits) => {
      const plain =
        result.exitCode === 2 &&
        result.error === undefined &&
        !result.timedOut &&
        !result.aborted &&
        !CODEX_EVENTS[origin.event]!.exit2Blocks;
      if (!plain) return claudeCodeDialect.read(result, event, limits);
      const stderr = clipText(result.stderr.trim());
      return stderr === "" ? CONTINUE : { action: "continue", systemMessage: stderr };
    },
  };
}

/** The hook's matcher, tested as Codex tests it: `apply_patch` also names our Edit and Write. */
function codexMatcher(origin: HookOrigin): ((event: HookEvent) => boolean) | undefined {
  if (origin.matcher === undefined) return undefined;
  const spec = CODEX_EVENTS[origin.event]!;
  const test = compileMatcher(spec.event, origin.matcher, ["matcher"], { regex: linearRegex });
  if (test === null) return undefined;
  return (event) => {
    if (test(event)) return true;
    const tool = (event as { tool?: unknown }).tool;
    return (
      typeof tool === "string" &&
      APPLY_PATCH_TOOLS.has(tool) &&
      test({ ...event, tool: "apply_patch" } as HookEvent)
    );
  };
}

/**
 * OpenAI Codex CLI: `.codex/hooks.json` and the `[hooks]` tables of `.codex/config.toml`, in the
 * project and in the home directory.
 */
export const codexFormat: HookFormat = {
  name: "codex",
  title: "Codex",
  files: {
    project: [".codex/hooks.json", ".codex/config.toml"],
    user: [".codex/hooks.json", ".codex/config.toml"],
  },
  events: CODEX_EVENTS,
  matchesPath: (path) => /(?:^|[\\/])\.codex[\\/](?:hooks\.json|config\.toml)$/.test(path),
  parse: parseCodexFile,
  read: (doc, ctx) => (isToml(ctx.file) ? readCodexToml(doc, ctx) : readCodexFile(doc, ctx)),
  dialect: codexDialect,
  matcher: codexMatcher,
};
