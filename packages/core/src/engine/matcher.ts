import picomatch from "picomatch/posix.js";
import { HookError } from "../base/hook-error.js";
import type { HookEvent, HookEventMap, HookEventName } from "../events/event-schemas.js";
import { matcherSubject, specOf, subjectAt } from "../events/event-spec.js";
import { unknownEventMessage } from "../events/suggest-event.js";

/** The A3S SDK's object matcher, for tool events. */
export interface ToolMatcher {
  /** A string matcher over the tool name (same rules as a string matcher). */
  tool?: string;
  /** A glob over the tool's path argument (`file_path`, `path`, …): `*.env`, `src/**\/*.ts`. */
  pathPattern?: string;
  /** A regular expression searched in the `command` argument. */
  commandPattern?: string;
}

/**
 * What a registration may match on: a string (tested against the event's matcher target),
 * a {@link ToolMatcher}, or, for in-process hooks, a predicate.
 */
export type Matcher<E extends HookEventName = HookEventName> =
  | string
  | ToolMatcher
  | ((event: HookEventMap[E]) => boolean);

/** A compiled matcher; `null` means "matches everything" so the engine can skip the call. */
export type CompiledMatcher = ((event: HookEvent) => boolean) | null;

/** A compiled regular expression, as far as matchers use one. */
export interface RegexTest {
  /** True when the expression matches somewhere in `input` (`RegExp.prototype.test`). */
  test(input: string): boolean;
}

/**
 * Compiles the regular expressions of string and object matchers (`source` as a `RegExp`
 * with no flags would read it). Throws for a source it cannot compile or does not support;
 * the error's message is shown to whoever wrote the pattern.
 */
export type RegexCompiler = (source: string) => RegexTest;

/** How a matcher compiles its patterns. */
export interface MatcherOptions {
  /**
   * The regular-expression engine; JavaScript's `RegExp` when left out. A backtracking engine
   * can take exponential time on a hostile pattern (`^(a+)+$`), so patterns from untrusted
   * places (remote clients, settings files) should compile with a linear-time one, such as
   * `linearRegex` of `@a3s-lab/hooks-node`. When given, globs (`pathPattern`) are compiled
   * through it too: the same globs match the same paths, except that a path with a `.` or `..`
   * segment never matches (wildcards never match those segments either way).
   */
  regex?: RegexCompiler;
}

const nativeRegex: RegexCompiler = (source) => new RegExp(source);

// Claude Code's hooks reference, "Matcher patterns": a matcher of only letters, digits, `_`,
// `-`, spaces, `,` and `|` is an exact string, or a list of exact strings separated by `|` or `,`
// (whitespace around a separator is ignored); one that contains any other character is a
// JavaScript regular expression, unanchored (`^Notebook` matches NotebookEdit, `mcp__memory`
// matches no tool). A dot is therefore never a name character: `Notebook.*` is a regex. Ours add
// `:` to the names (no Claude Code tool has one; `builtin:`/`mcp:` are read before) and a `*`
// inside an otherwise exact list as a wildcard (`mcp__github__*`).
const EXACT = /^[\w:\- ,|]+$/;
const WILDCARD = /^[\w:*\- ,|]+$/;
const SEPARATOR = /\s*[|,]\s*/;

/** How a name matcher tells exact names from a regular expression. */
interface NameRule {
  exact: RegExp;
  wildcard: RegExp;
  separator: RegExp;
}

const CLAUDE_RULE: NameRule = { exact: EXACT, wildcard: WILDCARD, separator: SEPARATOR };
/**
 * The reference again: "The `FileChanged` and `StopFailure` events have a narrower exact-match
 * set": letters, digits, `_` and `|` only; a hyphen, space or comma makes a regex, and only `|`
 * separates names.
 */
const NARROW_RULE: NameRule = {
  exact: /^[\w:|]+$/,
  wildcard: /^[\w:*|]+$/,
  separator: /\|/,
};
const NARROW_EVENTS: ReadonlySet<string> = new Set(["FileChanged", "StopFailure"]);
const PATH_KEYS = ["file_path", "path", "filePath", "notebook_path"] as const;

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

function compileRegex(
  source: string,
  compile: RegexCompiler,
  field: readonly (string | number)[],
  written = source,
): RegexTest {
  try {
    return compile(source);
  } catch (error) {
    throw new HookError(
      "INVALID_PATTERN",
      `${field.join(".")}: invalid regular expression ${JSON.stringify(written)}: ${(error as Error).message}`,
      {
        cause: error,
        path: field,
      },
    );
  }
}

/** The names of an exact (or wildcard) list: split on `|` and `,`, blanks around them dropped. */
function nameList(pattern: string, separator: RegExp = SEPARATOR): string[] {
  return pattern.split(separator).filter((name) => name !== "");
}

/**
 * Compile a string matcher into a test over one name, by Claude Code's rule. In order:
 * `""`, `"*"` match everything; `builtin:…` / `mcp:…` match by tool origin (MCP tools are
 * named `mcp__server__tool`); letters, digits, `_`, `-`, `:`, spaces, `,` and `|` only: an
 * exact name or a list of them (`Edit|Write`, `Edit, Write`); `*` inside such a list is a
 * wildcard (`mcp__github__*`); anything else is a regular expression searched in the name,
 * unanchored, as `RegExp.prototype.test` does (`^Notebook`, `mcp__memory__.*`; write
 * `^Edit$` for the whole name).
 */
export function compileNameMatcher(
  pattern: string,
  field: readonly (string | number)[] = ["matcher"],
  options: MatcherOptions = {},
): ((name: string | undefined) => boolean) | null {
  return compileName(pattern, field, options, CLAUDE_RULE);
}

function compileName(
  pattern: string,
  field: readonly (string | number)[],
  options: MatcherOptions,
  rule: NameRule,
): ((name: string | undefined) => boolean) | null {
  const p = pattern.trim();
  if (p === "" || p === "*") return null;
  const compile = options.regex ?? nativeRegex;
  const origin = /^(builtin|mcp):(.*)$/.exec(p);
  if (origin) {
    const wantMcp = origin[1] === "mcp";
    const inner = compileName(origin[2] ?? "", field, options, rule);
    return (name) =>
      name !== undefined && name.startsWith("mcp__") === wantMcp && (inner === null || inner(name));
  }
  if (rule.exact.test(p)) {
    const list = nameList(p, rule.separator);
    if (list.length === 1) {
      const only = list[0];
      return (name) => name === only;
    }
    const names = new Set(list);
    return (name) => name !== undefined && names.has(name);
  }
  if (rule.wildcard.test(p)) {
    const source = nameList(p, rule.separator)
      .map((alt) => alt.split("*").map(escapeRegex).join(".*"))
      .join("|");
    const re = compileRegex(`^(?:${source})$`, compile, field, p);
    return (name) => name !== undefined && re.test(name);
  }
  const re = compileRegex(p, compile, field, p);
  return (name) => name !== undefined && re.test(name);
}

/**
 * picomatch's lookarounds, the only ones it writes for a glob that uses no extglob: they keep
 * wildcards off `.` and `..` segments and empty ones. A linear-time engine has no lookaround,
 * so they are left out and such paths are refused before the expression runs.
 */
const GLOB_LOOKAROUNDS = [
  "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))",
  "(?!\\.{1,2}(?:\\/|$))",
  "(?!\\.{0,1}(?:\\/|$))",
  "(?!\\.)",
  "(?=.)",
];
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
const FINAL_STAR = "(?=.)[^/]*?\\/?)$";

/** A glob as picomatch reads it, matched by `compile`'s engine. */
function compileGlob(
  pattern: string,
  picoOptions: { dot: boolean; basename?: boolean },
  compile: RegexCompiler,
): (path: string) => boolean {
  // picomatch's `(?=.)` means "not at the end". Before a star that ends the pattern it matters
  // (`*/**/*` is not `a`): there it is spelled without lookahead. Everywhere else something
  // that needs a character follows, or the final star's own check applies, so it can go.
  let source = picomatch.makeRe(pattern, picoOptions).source;
  if (source.endsWith(FINAL_STAR)) {
    source = `${source.slice(0, -FINAL_STAR.length)}(?:[^/]+?\\/?|\\/))$`;
  }
  for (const lookaround of GLOB_LOOKAROUNDS) source = source.split(lookaround).join("");
  const re = compile(source);
  // picomatch's `basename` option: a pattern without a slash is tested on the file name.
  const subject = picoOptions.basename
    ? (path: string) => path.slice(path.lastIndexOf("/") + 1)
    : (path: string) => path;
  return (path) => path !== "" && !DOT_SEGMENT.test(path) && re.test(subject(path));
}

/**
 * `path` with `.` segments, empty segments and `..` after a folder removed, the way the tool will
 * read it, so a guard on `*.env` or `secrets/**` cannot be walked past as `./.env` or
 * `a/../secrets/key`. Purely textual, as the file tools resolve `..` too; a `..` that climbs
 * above a relative path's start stays.
 */
export function normalizePath(path: string): string {
  if (!/(?:^|\/)\.{1,2}(?:\/|$)|\/\//.test(path)) return path;
  const absolute = path.startsWith("/");
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    else if (kept.length > 0 && kept[kept.length - 1] !== "..") kept.pop();
    else if (!absolute) kept.push("..");
  }
  const joined = kept.join("/");
  return absolute ? `/${joined}` : joined === "" ? "." : joined;
}

function pathArgument(event: HookEvent): string | undefined {
  const args = (event as { args?: { [K in (typeof PATH_KEYS)[number]]?: unknown } }).args;
  if (!args) return undefined;
  // PATH_KEYS in order, written out: named property loads are much faster than args[key].
  if (typeof args.file_path === "string") return args.file_path;
  if (typeof args.path === "string") return args.path;
  if (typeof args.filePath === "string") return args.filePath;
  if (typeof args.notebook_path === "string") return args.notebook_path;
  return undefined;
}

/**
 * The commonest matchers, a tool name or a list of them, as one closure that reads the tool and
 * looks it up: with no call of ours inside, the JIT can inline it where the engine tests it.
 * Same answers as `compileNameMatcher`; undefined for every other kind of pattern.
 */
function toolNameMatcher(
  event: HookEventName,
  pattern: string,
  byName: (name: string | undefined) => boolean,
): CompiledMatcher | undefined {
  const p = pattern.trim();
  // `builtin:…` and `mcp:…` look plain but match by origin: compileNameMatcher's business.
  if (!EXACT.test(p) || /^(builtin|mcp):/.test(p)) return undefined;
  const list = nameList(p);
  // An event of another type (a compiled matcher tested by hand) takes the general path.
  if (list.length === 1) {
    // One name, the most common matcher: a string comparison beats a Set lookup.
    const name = list[0];
    return (e) =>
      e.eventType === event ? (e as { tool?: string }).tool === name : byName(matcherSubject(e));
  }
  const names = new Set(list);
  return (e) =>
    e.eventType === event
      ? names.has((e as { tool?: string }).tool as string)
      : byName(matcherSubject(e));
}

function compileToolMatcher(
  matcher: ToolMatcher,
  field: readonly (string | number)[],
  options: MatcherOptions,
): CompiledMatcher {
  const tests: ((event: HookEvent) => boolean)[] = [];
  if (matcher.tool !== undefined) {
    const byName = compileNameMatcher(matcher.tool, [...field, "tool"], options);
    if (byName) tests.push((e) => byName((e as { tool?: string }).tool));
  }
  if (matcher.pathPattern !== undefined && matcher.pathPattern !== "") {
    let glob: (path: string) => boolean;
    try {
      // A pattern without a slash (`*.env`) matches the file name in any folder. picomatch's
      // `basename` option is only for such patterns: with a slash it stops matching at all.
      const pattern = matcher.pathPattern;
      const picoOptions = pattern.includes("/") ? { dot: true } : { dot: true, basename: true };
      glob =
        options.regex === undefined
          ? picomatch(pattern, picoOptions)
          : compileGlob(pattern, picoOptions, options.regex);
    } catch (error) {
      if (HookError.is(error)) throw error;
      throw new HookError(
        "INVALID_PATTERN",
        `${[...field, "pathPattern"].join(".")}: invalid glob ${JSON.stringify(matcher.pathPattern)}: ${(error as Error).message}`,
        {
          cause: error,
          path: [...field, "pathPattern"],
        },
      );
    }
    tests.push((e) => {
      const path = pathArgument(e);
      return path !== undefined && glob(normalizePath(path));
    });
  }
  if (matcher.commandPattern !== undefined && matcher.commandPattern !== "") {
    const re = compileRegex(matcher.commandPattern, options.regex ?? nativeRegex, [
      ...field,
      "commandPattern",
    ]);
    tests.push((e) => {
      const command = (e as { args?: { command?: unknown } }).args?.command;
      return typeof command === "string" && re.test(command);
    });
  }
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0]!;
  return (e) => tests.every((t) => t(e));
}

/**
 * Compile a registration's matcher once, at registration. Throws `INVALID_PATTERN` for a
 * pattern that does not compile and `INVALID_CONFIG` for a matcher that cannot apply to
 * the event (an object matcher on a non-tool event, a name matcher on an event with no target).
 */
export function compileMatcher<E extends HookEventName>(
  event: E,
  matcher: Matcher<E> | undefined,
  field: readonly (string | number)[] = ["matcher"],
  options: MatcherOptions = {},
): CompiledMatcher {
  if (matcher === undefined || matcher === null) return null;
  if (typeof matcher === "function") {
    return matcher as (event: HookEvent) => boolean;
  }
  const spec = specOf(event);
  if (spec === undefined) {
    throw new HookError("UNKNOWN_EVENT", unknownEventMessage(event), {
      path: ["event"],
    });
  }
  if (typeof matcher === "string") {
    const rule = NARROW_EVENTS.has(event) ? NARROW_RULE : CLAUDE_RULE;
    const byName = compileName(matcher, field, options, rule);
    if (byName === null) return null;
    if (spec.matcherTarget === undefined) {
      throw new HookError(
        "INVALID_CONFIG",
        `${field.join(".")}: ${event} has nothing to match a name against; use "*" or leave the matcher out (got ${JSON.stringify(matcher)})`,
        { path: field },
      );
    }
    const target = spec.matcherTarget;
    if (target === "tool") {
      const leaf = toolNameMatcher(event, matcher, byName);
      if (leaf) return leaf;
    }
    return (e) => byName(subjectAt(e, target));
  }
  if (typeof matcher === "object") {
    if (!spec.toolEvent) {
      throw new HookError(
        "INVALID_CONFIG",
        `${field.join(".")}: { tool, pathPattern, commandPattern } matchers apply to tool events only, not ${event}`,
        { path: field },
      );
    }
    return compileToolMatcher(matcher, field, options);
  }
  throw new HookError(
    "INVALID_CONFIG",
    `${field.join(".")}: expected a string, an object or a function`,
    { path: field },
  );
}
