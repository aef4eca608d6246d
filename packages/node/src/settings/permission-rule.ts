import { lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { eventSpecs, HookError, type HookEvent, type HookEventName } from "@a3s-lab/hooks-core";
import { compileMatcher, type RegexTest } from "@a3s-lab/hooks-core/internal";
import { splitBashCommand } from "../shell/index.js";
import { linearRegex } from "../support/linear-regex.js";

/** A compiled permission rule: true when a tool call is one the rule describes. */
export type PermissionRuleTest = (event: HookEvent) => boolean;

/** Where a rule's relative paths start. */
export interface PermissionRuleContext {
  /** The project directory: `/path`, `./path` and `path` are relative to it, and so are tools' relative paths. */
  projectDir: string;
  /** `~/path` starts here. Default `os.homedir()`. */
  home?: string;
}

/** Tools a `Read(…)` rule covers (the file readers); `Edit(…)` covers the file writers. */
const READ_TOOLS = new Set(["Read", "Grep", "Glob", "LS"]);
const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
/** Readers that take a directory and search below it. */
const SEARCH_TOOLS = new Set(["Grep", "Glob", "LS"]);

/**
 * For tools this syntax has no specifier grammar for, the argument a specifier is compared
 * with (`Task(Explore)` names a subagent type); a tool not listed matches on every call.
 */
const MAIN_ARGUMENT: Readonly<Record<string, readonly string[]>> = {
  Task: ["subagent_type"],
  Agent: ["subagent_type"],
  Skill: ["skill", "name"],
};

/** Longest rule accepted: a settings file is not the place for a 64 KiB pattern. */
const MAX_RULE_CHARS = 4096;

const TOOL_NAME = /^[A-Za-z0-9_-]+(?:\*)?$|^[A-Za-z0-9_-]*\*[A-Za-z0-9_-]*$/;
const RULE = /^([^()]+?)(?:\((.*)\))?$/s;

/** Events an `if` condition is tested on; on any other event a hook with `if` never runs. */
export function ifAppliesTo(event: HookEventName): boolean {
  return eventSpecs[event]?.toolEvent === true;
}

function invalid(field: string, rule: string, why: string): HookError {
  return new HookError("INVALID_CONFIG", `${field}: invalid rule ${JSON.stringify(rule)}: ${why}`, {
    path: [field],
  });
}

/**
 * Compile one rule in Claude Code's permission-rule syntax, as a hook's `if` condition uses it:
 * `Tool` (every call of it), `Bash(npm test)` (that command exactly), `Bash(git push:*)` and
 * `Bash(git *)` (the command and anything after a space), `Bash(git * main)` (`*` anywhere),
 * `Read(./secrets/**)`, `Edit(*.ts)` and `Edit(src/**)` (gitignore-style globs: `//abs` from the
 * file-system root, `~/p` from home, `/p`, `./p` and `p` from the project directory; a pattern
 * without a slash matches at any depth), `WebFetch(domain:example.com)`, `mcp__server`,
 * `mcp__server__tool` and `mcp__server__*`. Any other tool takes a specifier too: `Task(Explore)`
 * and `Agent(Explore)` compare it with the subagent type, `Skill(name)` with the skill (`*` is
 * any text); for a tool without such an argument the rule matches every call of it.
 *
 * A Bash rule is tested against every simple command of a compound one (`a && b`, `a; b`,
 * `a | b`, `$(b)`, with `FOO=1` assignments and wrappers such as `timeout 5` or `nohup` set
 * aside), and matches when any of them does, so a guard on `rm *` still runs for
 * `git status; rm -rf /`. A command the splitter cannot follow matches every Bash rule: an
 * `if` only saves starting a hook, so when in doubt the hook runs. Globs and wildcards run on
 * the linear-time engine, and paths are normalised as core's `pathPattern` does.
 *
 * Throws `INVALID_CONFIG` (naming `field`) for a rule that is malformed: empty, unbalanced
 * parentheses, or a specifier Bash, Read, Edit, Write or WebFetch cannot read.
 */
export function compilePermissionRule(
  rule: string,
  ctx: PermissionRuleContext,
  field = "if",
): PermissionRuleTest {
  if (typeof rule !== "string") throw invalid(field, String(rule), "expected a string");
  if (rule.length > MAX_RULE_CHARS) {
    throw new HookError(
      "INVALID_CONFIG",
      `${field}: a rule of ${rule.length} characters; the limit is ${MAX_RULE_CHARS}`,
      { path: [field] },
    );
  }
  const parts = RULE.exec(rule.trim());
  const tool = parts?.[1]?.trim() ?? "";
  if (!parts || !TOOL_NAME.test(tool)) {
    throw invalid(field, rule, 'expected "Tool" or "Tool(specifier)", such as "Bash(git *)"');
  }
  const byName = toolName(tool);
  const spec = parts[2];
  if (spec?.trim() === "")
    throw invalid(field, rule, "empty parentheses; write the tool name alone");
  if (spec === undefined || spec === "*") {
    return (e) => byName((e as { tool?: string }).tool);
  }
  if (tool === "Bash") return bashRule(spec, field, rule);
  if (tool === "Read" || tool === "Edit" || tool === "Write") {
    const tools = tool === "Read" ? READ_TOOLS : EDIT_TOOLS;
    const glob = pathRule(spec, ctx, field, rule);
    return (e) => tools.has((e as { tool?: string }).tool ?? "") && glob(e);
  }
  if (tool === "WebFetch") {
    const domain = /^domain:([A-Za-z0-9.*-]+)$/.exec(spec)?.[1];
    if (!domain) throw invalid(field, rule, 'expected "WebFetch(domain:example.com)"');
    const host = domainTest(hostName(domain));
    return (e) => {
      if ((e as { tool?: string }).tool !== "WebFetch") return false;
      const url = (e as { args?: { url?: unknown } }).args?.url;
      if (typeof url !== "string") return true;
      try {
        return host(hostName(new URL(url).hostname));
      } catch {
        return true;
      }
    };
  }
  return otherToolRule(byName, MAIN_ARGUMENT[tool] ?? [], spec, field, rule);
}

/** `Tool(specifier)` for a tool without a grammar of its own. */
function otherToolRule(
  byName: (name: string | undefined) => boolean,
  keys: readonly string[],
  spec: string,
  field: string,
  rule: string,
): PermissionRuleTest {
  let depth = 0;
  for (const c of spec) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth !== 0) throw invalid(field, rule, "unbalanced parentheses");
  const text = spec.trim();
  const re = linearRegex(`^${wildcards(text)}$`);
  return (e) => {
    if (!byName((e as { tool?: string }).tool)) return false;
    const args = (e as { args?: Record<string, unknown> }).args ?? {};
    const key = keys.find((k) => typeof args[k] === "string");
    // No argument to compare: the hook runs.
    return key === undefined || re.test(args[key] as string);
  };
}

/** A host name as compared: lower case, without the trailing dot of a fully qualified name. */
function hostName(host: string): string {
  return host.toLowerCase().replace(/\.+$/, "");
}

/** `Bash`, `mcp__server` (all its tools), `mcp__server__tool`, `mcp__server__*`. */
function toolName(tool: string): (name: string | undefined) => boolean {
  if (tool.includes("*")) {
    const re = linearRegex(`^${tool.split("*").map(escapeRegex).join("[\\s\\S]*")}$`);
    return (name) => name !== undefined && re.test(name);
  }
  // A server's name alone stands for all of its tools.
  if (/^mcp__[^_]+(?:_[^_]+)*$/.test(tool) && !tool.slice(5).includes("__")) {
    return (name) => name === tool || (name?.startsWith(`${tool}__`) ?? false);
  }
  return (name) => name === tool;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function domainTest(domain: string): (host: string) => boolean {
  if (domain.startsWith("*.")) {
    const rest = domain.slice(1);
    return (host) => host.endsWith(rest) && host.length > rest.length;
  }
  return (host) => host === domain;
}

/**
 * A Bash specifier as a test of one simple command: `cmd:*` and a final ` *` mean "`cmd`, or
 * `cmd` followed by a space and anything"; any other `*` is any text; otherwise exact.
 */
function bashRule(spec: string, field: string, rule: string): PermissionRuleTest {
  const text = spec.trim().replace(/\s+/g, " ");
  if (text === "") throw invalid(field, rule, "an empty command");
  let test: RegexTest | ((command: string) => boolean);
  // The rule as literal pieces around `*`, and whether " anything" may follow the last one.
  let body = text;
  let tail = false;
  if (!text.includes("*")) {
    test = (command: string) => command === text;
  } else {
    let source: string;
    if (text.endsWith(":*") && !text.slice(0, -2).includes("*")) {
      body = text.slice(0, -2);
      tail = true;
      source = `${escapeRegex(body)}(?: [\\s\\S]*)?`;
    } else if (text.endsWith(" *")) {
      body = text.slice(0, -2);
      tail = true;
      source = `${wildcards(body)}(?: [\\s\\S]*)?`;
    } else {
      source = wildcards(text);
    }
    test = linearRegex(`^${source}$`);
  }
  const matches = typeof test === "function" ? test : (c: string) => test.test(c);
  const pieces = body.split("*");
  const first = pieces[0]!;
  // Whether some text starting with `start` matches: `start` is still within the first literal
  // piece, or has passed it and a `*` can take the rest, or has passed the whole rule before " …".
  const couldStartWith = (start: string) =>
    first.startsWith(start) ||
    (pieces.length > 1 && start.startsWith(first)) ||
    (tail && (start === first || start.startsWith(`${first} `)));
  return (e) => {
    if ((e as { tool?: string }).tool !== "Bash") return false;
    const command = (e as { args?: { command?: unknown } }).args?.command;
    if (typeof command !== "string") return true;
    const split = splitBashCommand(command);
    // Not followed: the hook runs, as it would without the condition.
    if (split === undefined) return true;
    return split.texts.some(matches) || split.open.some(couldStartWith);
  };
}

function wildcards(text: string): string {
  return text.split("*").map(escapeRegex).join("[\\s\\S]*");
}

/** Characters a glob reads specially, escaped so a directory's own name is taken literally. */
function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@\\]/g, "\\$&");
}

function pathRule(
  spec: string,
  ctx: PermissionRuleContext,
  field: string,
  rule: string,
): PermissionRuleTest {
  if (spec.trim() === "") throw invalid(field, rule, "an empty path pattern");
  const projectDir = resolve(ctx.projectDir);
  const home = ctx.home ?? homedir();
  let base: string;
  let pattern: string;
  if (spec.startsWith("//")) {
    base = "/";
    pattern = spec.slice(2);
  } else if (spec.startsWith("~/")) {
    base = home;
    pattern = spec.slice(2);
  } else if (spec.startsWith("/")) {
    base = projectDir;
    pattern = spec.slice(1);
  } else {
    base = projectDir;
    pattern = spec.startsWith("./") ? spec.slice(2) : spec;
  }
  // gitignore: a pattern with no slash (or only a trailing one) matches at any depth below its base.
  const anchored = pattern.replace(/\/$/, "").includes("/");
  const prefix = escapeGlob(resolve(base)).replace(/\/$/, "");
  const glob = `${prefix}/${anchored ? "" : "**/"}${pattern.endsWith("/") ? `${pattern}**` : pattern}`;
  let compiled: ((event: HookEvent) => boolean) | null;
  try {
    // Core's pathPattern: the same glob engine, on the linear-time regex, over a normalised path.
    compiled = compileMatcher("PreToolUse", { pathPattern: glob }, [field], { regex: linearRegex });
  } catch (error) {
    throw invalid(field, rule, HookError.from(error).message.replace(/^[^:]*: /, ""));
  }
  const test = compiled ?? (() => true);
  // The directory every path the rule names is in: its pattern up to the first wildcard.
  const literal = pattern.split("/");
  const firstGlob = literal.findIndex((part) => /[*?[\]{}\\!]/.test(part));
  const root = resolve(base, ...literal.slice(0, firstGlob === -1 ? -1 : firstGlob));
  const judge = (e: HookEvent, args: Record<string, unknown> | undefined, absolute: string) => {
    if (test({ ...e, args: { file_path: absolute } } as HookEvent)) return true;
    if (!SEARCH_TOOLS.has((e as { tool?: string }).tool ?? "")) return false;
    // A search from a directory reaches everything below it: a pattern that matches at any
    // depth, a root above or below the rule's, and a Glob pattern that climbs out of its root.
    if (!anchored || within(root, absolute) || within(absolute, root)) return true;
    const glob = args?.pattern;
    return typeof glob === "string" && (/^[/~]/.test(glob) || glob.split("/").includes(".."));
  };
  return (e) => {
    const args = (e as { args?: Record<string, unknown> }).args;
    const path = args ? pathOf(args) : undefined;
    // A reader with no path (Grep, Glob) searches the project: it may reach what the rule names.
    if (path === undefined) return true;
    const absolute = isAbsolute(path) ? path : resolve(projectDir, path);
    if (judge(e, args, absolute)) return true;
    // The tool follows symbolic links: `alias/key` with `alias -> secrets` reads `secrets/key`.
    const resolved = resolvedPaths(absolute, projectDir);
    // Unsure where it leads (dangling, a loop, out of the project, unreadable): the hook runs.
    if (resolved === undefined) return true;
    return resolved.some((p) => p !== absolute && judge(e, args, p));
  };
}

/**
 * The path `absolute` names once symbolic links are followed (for a file that does not exist
 * yet, its nearest existing folder is), also spelled from `projectDir` as given when it is
 * inside the project's real path. Undefined when that cannot be told: a dangling link, a loop,
 * an error other than "no such file", or a link inside the project that leads out of it.
 */
function resolvedPaths(absolute: string, projectDir: string): string[] | undefined {
  let real: string;
  try {
    real = realOrMissing(absolute);
  } catch {
    return undefined;
  }
  if (real === absolute) return [absolute];
  let realProject: string;
  try {
    realProject = realpathSync.native(projectDir);
  } catch {
    return undefined;
  }
  const fromProject = within(real, realProject)
    ? projectDir + real.slice(realProject.length)
    : undefined;
  if (within(absolute, projectDir) && fromProject === undefined) return undefined;
  return fromProject === undefined ? [real] : [real, fromProject];
}

/** `realpath`, or for a path that does not exist yet, its nearest existing folder's plus the rest. */
function realOrMissing(absolute: string): string {
  try {
    return realpathSync.native(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // A link whose target is missing would create that target: refused (thrown) as unsure.
  lstatMissing(absolute);
  const parent = dirname(absolute);
  if (parent === absolute) throw new Error("no existing folder");
  return join(realOrMissing(parent), basename(absolute));
}

/** Throws unless nothing at all (not even a dangling link) is at `path`. */
function lstatMissing(path: string): void {
  try {
    lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  throw new Error("a dangling link");
}

/** Whether `path` is `dir` or below it. */
function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

function pathOf(args: Record<string, unknown>): string | undefined {
  for (const key of ["file_path", "path", "filePath", "notebook_path"]) {
    if (typeof args[key] === "string") return args[key] as string;
  }
  return undefined;
}

/**
 * A hook's `if` field as a settings file gives it: the rule, or undefined when there is none or
 * it is malformed. A malformed rule is reported through `problem` as a warning naming the
 * field, and the hook is kept without it: it runs on every call its matcher takes, since
 * dropping it would silently remove a guard.
 */
export function readIfCondition(
  event: HookEventName,
  value: unknown,
  field: string,
  problem: (severity: "error" | "warning", message: string) => void,
): string | undefined {
  if (value === undefined) return undefined;
  try {
    if (typeof value !== "string") throw invalid(field, String(value), "expected a string");
    // Checked for its syntax only: paths are resolved when the hook is applied.
    compilePermissionRule(value, { projectDir: "/", home: "/" }, field);
  } catch (error) {
    problem(
      "warning",
      `${HookError.from(error).message.replace(/^[^:]*: /, "")}; the condition is ignored and the hook runs on every call its matcher takes`,
    );
    return undefined;
  }
  if (!ifAppliesTo(event)) {
    problem(
      "warning",
      `"if" conditions are tested on tool events only; on ${event} this hook never runs`,
    );
  }
  return value;
}
