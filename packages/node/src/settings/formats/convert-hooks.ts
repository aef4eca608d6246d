import type { HookEventName } from "@a3s-lab/hooks-core";
import type { SettingsHook } from "../hook-settings.js";
import { parseHooksBlock } from "../parse-hooks-block.js";
import type { SettingsProblem } from "../settings-problem.js";
import { geminiToolName } from "./gemini-format.js";
import { HOOK_FORMATS } from "./hook-formats.js";

/**
 * The formats `convertHooks` reads and writes: ours (`claude-code`) and the agents whose events,
 * matchers and entries it knows how to say in each other's terms. Windsurf's and Kiro's files are
 * read and run, but not converted yet.
 */
export const CONVERT_FORMATS = ["claude-code", "cursor", "gemini", "copilot", "codex"] as const;

/** A format `convertHooks` reads and writes. */
export type ConvertFormat = (typeof CONVERT_FORMATS)[number];

/** Something of the source that the target cannot say: where it is, and what is lost. */
export interface LossyPart {
  /** Its JSON path in the source file. */
  path: string;
  message: string;
}

/** What `convertHooks` made. */
export interface ConvertedHooks {
  /** The target format's file. */
  doc: Record<string, unknown>;
  /** How many hooks were written. */
  hooks: number;
  /** What could not be translated faithfully (written the nearest way, or left out: the message says). */
  lossy: LossyPart[];
  /** Errors in the source file: with any, nothing is converted. */
  errors: SettingsProblem[];
}

const TOOL_EVENTS = new Set<HookEventName>([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionGranted",
  "PermissionDenied",
]);

/** Which tools a hook fires for, in our tool names: all, some (`mcp__*` for every MCP tool), or a pattern. */
type Tools =
  | { kind: "all" }
  | { kind: "names"; names: string[] }
  | { kind: "pattern"; pattern: unknown; speaks: ConvertFormat };

const PLAIN = /^[A-Za-z0-9_-]+\*?$/;
/** Our file tools, which Codex does with `apply_patch`. */
const APPLY_PATCH = ["Edit", "Write", "MultiEdit"];

const title = (format: ConvertFormat) =>
  format === "claude-code" ? "Claude Code" : HOOK_FORMATS[format].title;

/** Claude Code and Codex speak one protocol (stdin and answers); every other agent its own. */
const protocol = (format: ConvertFormat) => (format === "codex" ? "claude-code" : format);

/** A matcher of alternatives in some naming, as our tool names, or a pattern. */
function namesOf(
  matcher: string | undefined,
  speaks: ConvertFormat,
  toOurs: (name: string) => string[],
): Tools {
  if (matcher === undefined || matcher === "" || matcher === "*" || matcher === ".*")
    return { kind: "all" };
  const parts = matcher
    .replace(/^\^\(?/, "")
    .replace(/\)?\$$/, "")
    .split("|")
    .map((p) => p.replace(/\.\*$/, "*"));
  if (!parts.every((p) => PLAIN.test(p))) return { kind: "pattern", pattern: matcher, speaks };
  return { kind: "names", names: [...new Set(parts.flatMap(toOurs))] };
}

const GEMINI_TO_OURS = new Map(
  ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "WebSearch"].map((n) => [
    geminiToolName(n),
    n,
  ]),
);

/** The tools a hook of the source fires for, in our names. */
function sourceTools(hook: SettingsHook, from: ConvertFormat): Tools {
  const origin = hook.origin;
  switch (from) {
    case "claude-code":
      if (hook.matcher !== undefined && typeof hook.matcher !== "string") {
        return { kind: "pattern", pattern: hook.matcher, speaks: from };
      }
      return namesOf(hook.matcher, from, (n) => [n]);
    case "codex":
      return namesOf(origin?.matcher, from, (n) => (n === "apply_patch" ? APPLY_PATCH : [n]));
    case "gemini":
      return namesOf(origin?.matcher, from, (n) => [GEMINI_TO_OURS.get(n) ?? n]);
    default:
      // Cursor's event names its tools; Copilot's fire for every tool.
      return namesOf(hook.matcher as string | undefined, from, (n) => [n]);
  }
}

/** One hook entry to write: the target's event, its matcher, and the entry itself. */
interface Written {
  event: string;
  matcher?: unknown;
  entry: Record<string, unknown>;
}

/** Cursor's tool events, by our event and the tools each covers. */
const CURSOR_TOOL_EVENTS: Partial<Record<HookEventName, [string, string[]][]>> = {
  PreToolUse: [
    ["beforeShellExecution", ["Bash"]],
    ["beforeMCPExecution", ["mcp__*"]],
    ["beforeReadFile", ["Read"]],
  ],
  PostToolUse: [
    ["afterShellExecution", ["Bash"]],
    ["afterMCPExecution", ["mcp__*"]],
    ["afterFileEdit", ["Write", "Edit"]],
  ],
};

const isMcp = (name: string) => name.startsWith("mcp__");

/**
 * Convert one hook file from one format to another. Every hook is written with the target's
 * event, matcher and fields where a faithful counterpart exists; everything else (an event the
 * target has none of, a matcher it cannot say, a field only the source reads, a script written
 * for another agent's stdin and answers) is listed in `lossy` with its JSON path, never dropped
 * silently.
 */
export function convertHooks(
  doc: Record<string, unknown>,
  from: ConvertFormat,
  to: ConvertFormat,
  file: string,
): ConvertedHooks {
  const ctx = { file, scope: "explicit" as const, trusted: true, basePath: ["hooks"] };
  const read =
    from === "claude-code"
      ? parseHooksBlock(doc.hooks ?? {}, ctx)
      : HOOK_FORMATS[from].read(doc, { ...ctx, basePath: [] });
  const errors = read.problems.filter((p) => p.severity === "error");
  const lossy: LossyPart[] = read.problems
    .filter((p) => p.severity === "warning")
    .map((p) => ({ path: p.path, message: p.message }));
  const out: ConvertedHooks = { doc: {}, hooks: 0, lossy, errors };
  if (errors.length > 0) return out;
  for (const [key, value] of Object.entries(read.options)) {
    if (value !== undefined && to !== "claude-code")
      lossy.push({
        path: `hooks.${key}`,
        message: `${title(to)} has no "${key}" option; left out`,
      });
  }
  const written: Written[] = [];
  for (const hook of read.hooks) {
    const lose = (message: string, at = "") =>
      lossy.push({
        path: at === ".matcher" ? matcherPath(hook, from) : `${hook.path}${at}`,
        message,
      });
    const entry = entryFor(hook, to, lose);
    if (entry === undefined) continue;
    const targets = eventsFor(hook, from, to, lose);
    if (targets.length === 0) continue;
    if (protocol(from) !== protocol(to)) {
      lose(
        `the command was written for ${title(from)}'s stdin and answers; ${title(to)} sends and reads its own, so only its exit codes keep their meaning (check the script)`,
        ".command",
      );
    }
    for (const target of targets) written.push({ ...target, entry });
    out.hooks += targets.length;
  }
  out.doc = layout(written, to);
  return out;
}

/** Where the source says which tools a hook is for: its group's matcher, or (Cursor, Copilot) the hook itself. */
function matcherPath(hook: SettingsHook, from: ConvertFormat): string {
  if (from === "cursor" || from === "copilot") return hook.path;
  return `${hook.path.replace(/\.hooks\[\d+\]$/, "")}.matcher`;
}

/** The target's events (and matcher) for one hook; empty, with the reason listed, when none. */
function eventsFor(
  hook: SettingsHook,
  from: ConvertFormat,
  to: ConvertFormat,
  lose: (message: string, at?: string) => void,
): { event: string; matcher?: unknown }[] {
  const our = hook.event;
  const named = hook.origin?.event ?? our;
  const events =
    to === "claude-code"
      ? [our as string]
      : Object.entries(HOOK_FORMATS[to].events)
          .filter(([, spec]) => spec.event === our)
          .map(([name]) => name);
  if (events.length === 0) {
    lose(`${title(to)} has no event for ${title(from)}'s ${named} (${our} here); left out`);
    return [];
  }
  if (!TOOL_EVENTS.has(our)) {
    const matcher = (hook.origin ? hook.origin.matcher : hook.matcher) as string | undefined;
    if (matcher === undefined) return [{ event: events[0]! }];
    const keeps =
      to === "claude-code" ||
      (to === "codex" && (HOOK_FORMATS.codex.events[events[0]!] as { matches?: boolean }).matches);
    if (keeps) return [{ event: events[0]!, matcher }];
    lose(
      `${title(to)} reads no matcher on ${events[0]}; written without it, so it fires on every ${our}`,
      ".matcher",
    );
    return [{ event: events[0]! }];
  }
  const tools = sourceTools(hook, from);
  switch (to) {
    case "claude-code":
    case "codex":
    case "gemini": {
      const { drop, ...matcher } = matcherFor(tools, from, to, lose);
      return drop ? [] : [{ event: events[0]!, ...matcher }];
    }
    case "copilot":
      if (tools.kind !== "all") {
        lose(
          `GitHub Copilot's ${events[0]} has no matcher: written for every tool, not only ${describeTools(tools)}`,
          ".matcher",
        );
      }
      return [{ event: events[0]! }];
    default:
      return cursorEvents(our, tools, lose);
  }
}

function describeTools(tools: Tools): string {
  if (tools.kind === "all") return "every tool";
  return tools.kind === "names" ? tools.names.join(", ") : JSON.stringify(tools.pattern);
}

/** The matcher to write in Claude Code's, Codex's or Gemini CLI's file (absent: every tool). */
function matcherFor(
  tools: Tools,
  from: ConvertFormat,
  to: "claude-code" | "codex" | "gemini",
  lose: (message: string, at?: string) => void,
): { matcher?: unknown; drop?: true } {
  if (tools.kind === "all") return {};
  if (tools.kind === "pattern") {
    // Claude Code's and Codex's matchers are the same regular expressions over the same names.
    if (protocol(tools.speaks) === protocol(to) && typeof tools.pattern === "string")
      return { matcher: tools.pattern };
    if (to === "claude-code" && from === "claude-code") return { matcher: tools.pattern };
    lose(
      `the matcher ${describeTools(tools)} cannot be said in ${title(to)}'s tool names; left out`,
      ".matcher",
    );
    return { drop: true };
  }
  let names = tools.names;
  if (to === "codex" && APPLY_PATCH.some((n) => names.includes(n))) {
    if (!APPLY_PATCH.every((n) => names.includes(n))) {
      lose(
        `Codex edits every file with apply_patch: written as apply_patch, which also covers ${APPLY_PATCH.filter((n) => !names.includes(n)).join(", ")}`,
        ".matcher",
      );
    }
    names = [...names.filter((n) => !APPLY_PATCH.includes(n)), "apply_patch"];
  }
  if (to === "gemini") {
    const unknown = names.filter((n) => !isMcp(n) && geminiToolName(n) === n);
    if (unknown.length > 0) {
      lose(
        `Gemini CLI has no tool named ${unknown.join(", ")}; left out of the matcher`,
        ".matcher",
      );
      names = names.filter((n) => !unknown.includes(n));
      if (names.length === 0) {
        lose("no tool of its matcher is left; the hook is left out");
        return { drop: true };
      }
    }
    names = names.map((n) => (isMcp(n) ? n : geminiToolName(n)));
  }
  const spelled = names.map((n) => (n.endsWith("*") ? `${n.slice(0, -1)}.*` : n));
  return { matcher: spelled.join("|") };
}

/** Cursor's events for a tool hook: one per tool family it covers, the rest listed. */
function cursorEvents(
  our: HookEventName,
  tools: Tools,
  lose: (message: string, at?: string) => void,
): { event: string }[] {
  const families = CURSOR_TOOL_EVENTS[our] ?? [];
  if (tools.kind === "pattern") {
    lose(
      `Cursor's events name their tools; the matcher ${describeTools(tools)} cannot be said; left out`,
      ".matcher",
    );
    return [];
  }
  if (tools.kind === "all") {
    lose(
      `Cursor runs ${our} hooks only for ${families.map(([, t]) => t.join(" and ")).join(", ")}: other tools go without this hook`,
      ".matcher",
    );
    return families.map(([event]) => ({ event }));
  }
  const out: { event: string }[] = [];
  const missing: string[] = [];
  for (const name of tools.names) {
    const family = families.find(
      ([, t]) => t.includes(name) || (isMcp(name) && t.includes("mcp__*")),
    );
    if (!family) {
      missing.push(name);
      continue;
    }
    if (!out.some((e) => e.event === family[0])) out.push({ event: family[0] });
    const broader = family[1].filter((t) => t !== name && !tools.names.includes(t));
    if (broader.length > 0 || (isMcp(name) && name !== "mcp__*")) {
      lose(
        `Cursor's ${family[0]} fires for ${family[1].join(" and ")}, not only ${name}`,
        ".matcher",
      );
    }
  }
  if (missing.length > 0) {
    lose(
      `Cursor has no ${our} hook for ${missing.join(", ")}; those tools go without it`,
      ".matcher",
    );
  }
  return out;
}

/** The fields each format's entry can hold beyond the command and its timeout. */
const KEEPS: Record<ConvertFormat, ReadonlySet<string>> = {
  "claude-code": new Set(["*"]),
  codex: new Set(),
  gemini: new Set(["name"]),
  cursor: new Set(["failBehavior"]),
  copilot: new Set(["cwd", "env"]),
};

/** The target's entry for one hook's command, or undefined (listed) when it has none. */
function entryFor(
  hook: SettingsHook,
  to: ConvertFormat,
  lose: (message: string, at?: string) => void,
): Record<string, unknown> | undefined {
  const definition = { ...(hook.definition as unknown as Record<string, unknown>) };
  delete definition.type;
  if (hook.type !== "command" && to !== "claude-code") {
    lose(`${title(to)} runs only command hooks, not ${hook.type}; left out`, ".type");
    return undefined;
  }
  if (to === "claude-code") {
    const entry: Record<string, unknown> = { type: hook.type, ...definition };
    if (hook.if !== undefined) entry.if = hook.if;
    return entry;
  }
  if (typeof definition.command !== "string") {
    lose(`${title(to)} runs a command string; this hook's argv form has none; left out`, ".args");
    return undefined;
  }
  const { command, timeout, ...rest } = definition as {
    command: string;
    timeout?: number;
  } & Record<string, unknown>;
  if (hook.if !== undefined) {
    lose(`${title(to)} has no "if" condition; left out, so the hook fires more often`, ".if");
  }
  const entry: Record<string, unknown> = {};
  if (to === "copilot") {
    entry.type = "command";
    entry.bash = command;
    // Copilot's default is 30 seconds; ours and the others' 60.
    entry.timeoutSec = timeout ?? 60;
  } else {
    if (to === "codex" || to === "gemini") entry.type = "command";
    entry.command = command;
    if (timeout !== undefined) entry.timeout = to === "gemini" ? timeout * 1000 : timeout;
  }
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (KEEPS[to].has(key)) {
      if (key === "failBehavior") {
        if (value === "block") entry.failClosed = true;
      } else entry[key] = value;
      continue;
    }
    lose(`${title(to)} has no "${key}" field; left out`, `.${key}`);
  }
  return entry;
}

/** The target file: its events' lists, grouped by matcher where the format groups. */
function layout(written: Written[], to: ConvertFormat): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const { event, matcher, entry } of written) {
    const list = (hooks[event] ??= []);
    if (to === "cursor" || to === "copilot") {
      list.push(entry);
      continue;
    }
    // One group per matcher, in first-seen order.
    const group = (list as { matcher?: unknown; hooks: unknown[] }[]).find(
      (g) => JSON.stringify(g.matcher) === JSON.stringify(matcher),
    );
    if (group) group.hooks.push(entry);
    else list.push({ ...(matcher !== undefined ? { matcher } : {}), hooks: [entry] });
  }
  return to === "cursor" || to === "copilot" ? { version: 1, hooks } : { hooks };
}
