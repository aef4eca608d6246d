import { homedir } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import { describeZodIssue, formatPath, valueAt } from "@a3s-lab/hooks-core/internal";
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
  /** `error`: that part was not used; `warning`: it was, but look at it. */
  severity: ProblemSeverity;
  /** 1-based position, for syntax errors. */
  line?: number;
  /** 1-based column, with `line`. */
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
    message: describeZodIssue(issue, valueAt(input, issue.path)),
    severity,
  }));
}
