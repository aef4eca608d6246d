import { homedir } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import { describeValue, formatPath } from "@a3s-lab/hooks-core";
import type { z } from "zod";

/** How bad a problem is: an `error` drops what it concerns, a `warning` only informs. */
export type ProblemSeverity = "error" | "warning";

/** One thing wrong with a settings file. */
export interface SettingsProblem {
  /** The file (absolute path, or the source name given for frontmatter). */
  file: string;
  /** Where in the file: `hooks.PreToolUse[0].hooks[1].timeout`, or "" for the whole file. */
  path: string;
  /** A human sentence: `expected a positive number (seconds), got "ten"`. */
  message: string;
  severity: ProblemSeverity;
  /** 1-based position, for syntax errors. */
  line?: number;
  column?: number;
}

export type PathKey = string | number;

/** A file path as a person wants to read it: relative to `cwd` when inside it, `~/…` under home. */
export function displayPath(file: string, where: { cwd?: string; home?: string } = {}): string {
  if (!isAbsolute(file)) return file;
  const inside = (base: string | undefined) => {
    if (base === undefined) return undefined;
    const rel = relative(base, file);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
  };
  const fromCwd = inside(where.cwd);
  const fromHome = inside(where.home ?? homedir());
  // The closer base wins: a project under home shows `.claude/…`, a home under cwd shows `~/…`.
  if (fromHome !== undefined && (fromCwd === undefined || fromHome.length < fromCwd.length))
    return `~${sep}${fromHome}`;
  return fromCwd ?? file;
}

/**
 * One line per problem: `.claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout: expected a
 * positive number (seconds), got "ten"`.
 */
export function formatProblem(
  problem: SettingsProblem,
  where: { cwd?: string; home?: string } = {},
): string {
  const at =
    problem.line !== undefined
      ? `:${problem.line}${problem.column ? `:${problem.column}` : ""}`
      : "";
  const path = problem.path ? `${problem.path}: ` : "";
  return `${displayPath(problem.file, where)}${at}: ${path}${problem.message}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const got = `got ${describeValue(value)}`;
  // Our schemas carry their own sentences ("expected a positive number (seconds)").
  if (issue.message.startsWith("expected")) {
    return value === undefined ? `is required (${issue.message})` : `${issue.message}, ${got}`;
  }
  switch (issue.code) {
    case "invalid_type":
      return value === undefined
        ? `is required (expected ${issue.expected})`
        : `expected ${issue.expected}, ${got}`;
    case "too_small":
      return issue.origin === "number"
        ? `expected a number ${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}, ${got}`
        : `expected at least ${String(issue.minimum)} ${issue.origin === "string" ? "characters" : "items"}, ${got}`;
    case "too_big":
      return issue.origin === "number"
        ? `expected a number ${issue.inclusive ? "<=" : "<"} ${String(issue.maximum)}, ${got}`
        : `expected at most ${String(issue.maximum)} ${issue.origin === "string" ? "characters" : "items"}, ${got}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}, ${got}`;
    case "invalid_union":
      return `does not match any accepted form, ${got}`;
    case "invalid_format":
      return `expected a valid ${issue.format}, ${got}`;
    default:
      return `${issue.message}, ${got}`;
  }
}

/** Turn a zod error into problems, one per issue, each with its path and a sentence. */
export function zodProblems(
  error: z.core.$ZodError,
  input: unknown,
  file: string,
  prefix: readonly PathKey[],
  severity: ProblemSeverity = "error",
): SettingsProblem[] {
  return error.issues.slice(0, 20).map((issue) => ({
    file,
    path: formatPath([...prefix, ...(issue.path as PathKey[])]),
    message: describeIssue(issue, valueAt(input, issue.path)),
    severity,
  }));
}
