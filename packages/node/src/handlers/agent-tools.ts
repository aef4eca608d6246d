import type { Dirent } from "node:fs";
import { opendir, realpath } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { HookEvent } from "@a3s-lab/hooks-core";
import { clipText, compileMatcher } from "@a3s-lab/hooks-core/internal";
import { linearRegex } from "../linear-regex.js";
import { isInside, readRegularFile } from "../settings/read-regular-file.js";
import type { ModelTool } from "./model-client.js";

/** The longest tool result an agent verifier's model sees, in characters. */
export const MAX_TOOL_RESULT_CHARS = 32_768;
/** The largest file Read or Grep opens, in bytes; a larger one is refused (Read) or skipped (Grep). */
export const MAX_READ_FILE_BYTES = 1_048_576;
/** The most directory entries one Glob or Grep visits before it stops and says so. */
export const MAX_WALK_ENTRIES = 10_000;
/** The most characters one Grep reads, all files together; past it, it stops and says so. */
export const MAX_GREP_CHARS = 33_554_432;
/** The most paths a Glob, or matching lines a Grep, lists. */
export const MAX_LISTED = 200;
/** Lines Read returns when the model asks for no `limit`. */
const DEFAULT_READ_LINES = 2000;
/** Folders no verifier needs to walk, and that are the largest in most projects. */
const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/** The read-only tools the built-in verifier offers its model. */
export const AGENT_TOOLS: readonly ModelTool[] = [
  {
    name: "Read",
    description:
      "Read a text file of the project. Paths are relative to the project directory. Returns numbered lines.",
    parameters: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "The file, relative to the project directory." },
        offset: { type: "integer", minimum: 1, description: "First line to return (1-based)." },
        limit: { type: "integer", minimum: 1, description: "How many lines to return." },
      },
      required: ["file_path"],
      additionalProperties: false,
    },
  },
  {
    name: "Grep",
    description:
      "Search the project's files for a regular expression (RE2 syntax). Returns path:line: text for each matching line.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "The regular expression." },
        path: { type: "string", description: "A folder or file to search. Default: the project." },
        glob: { type: "string", description: 'Only files matching this glob, e.g. "*.ts".' },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  {
    name: "Glob",
    description:
      'List the project\'s files matching a glob, e.g. "src/**/*.ts" or "*.json". Paths are relative to the project directory.',
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "The glob." },
        path: { type: "string", description: "A folder to search. Default: the project." },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
];

/** A tool's failure, reported to the model as its result so it can try something else. */
class ToolProblem extends Error {}

/** The project directory's real path, and a path inside it, or a ToolProblem. */
async function inside(
  root: string,
  path: unknown,
  what: string,
  optional = false,
): Promise<string> {
  if (path === undefined && optional) return root;
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new ToolProblem(`${what}: expected a path`);
  }
  const wanted = resolve(root, path);
  if (!isInside(root, wanted)) throw new ToolProblem(`${what}: outside the project directory`);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch (error) {
    throw new ToolProblem(`${what}: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`);
  }
  // A symlink inside the project may point anywhere.
  if (!isInside(root, real)) throw new ToolProblem(`${what}: leads outside the project directory`);
  return real;
}

/** Files under `start` (itself, if a file), symlinks and SKIPPED_DIRS left out, bounded. */
async function* walk(
  start: string,
  signal: AbortSignal,
  budget: { entries: number },
): AsyncGenerator<string> {
  let dir: Awaited<ReturnType<typeof opendir>>;
  try {
    dir = await opendir(start);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") yield start;
    return;
  }
  const files: string[] = [];
  const subdirs: string[] = [];
  // Entry types come from the directory itself (no stat): a symlink is neither file nor folder.
  for await (const entry of dir as AsyncIterable<Dirent>) {
    if (signal.aborted || budget.entries <= 0) break;
    budget.entries--;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) subdirs.push(join(start, entry.name));
    } else if (entry.isFile()) files.push(join(start, entry.name));
  }
  // Sorted, so the same project gives the model the same listing on every filesystem.
  yield* files.sort();
  for (const sub of subdirs.sort()) yield* walk(sub, signal, budget);
}

function globTest(pattern: unknown): (rel: string) => boolean {
  if (typeof pattern !== "string" || pattern === "")
    throw new ToolProblem("pattern: expected a glob");
  let compiled: ReturnType<typeof compileMatcher>;
  try {
    // The same glob engine (and linear-time regex) as a matcher's pathPattern.
    compiled = compileMatcher("PreToolUse", { pathPattern: pattern }, ["pattern"], {
      regex: linearRegex,
    });
  } catch (error) {
    throw new ToolProblem((error as Error).message);
  }
  if (!compiled) return () => true;
  const test = compiled;
  return (rel) =>
    test({ eventType: "PreToolUse", tool: "Glob", args: { path: rel } } as never as HookEvent);
}

function posix(root: string, file: string): string {
  return relative(root, file).split(sep).join("/");
}

async function readTool(root: string, args: Record<string, unknown>): Promise<string> {
  const file = await inside(root, args.file_path, "file_path");
  let text: string | { problem: string };
  try {
    // A parent directory swapped for a symlink after the check above is caught by the descriptor.
    text = await readRegularFile(file, MAX_READ_FILE_BYTES, { noFollow: true, inside: root });
  } catch (error) {
    throw new ToolProblem(
      `file_path: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`,
    );
  }
  if (typeof text !== "string") throw new ToolProblem(`file_path: ${text.problem}`);
  const offset =
    Number.isSafeInteger(args.offset) && (args.offset as number) > 0 ? (args.offset as number) : 1;
  const limit =
    Number.isSafeInteger(args.limit) && (args.limit as number) > 0
      ? (args.limit as number)
      : DEFAULT_READ_LINES;
  const lines = text.split("\n").slice(offset - 1, offset - 1 + limit);
  return lines.map((line, i) => `${offset + i}\t${line}`).join("\n") || "(empty)";
}

async function globTool(
  root: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string> {
  const matches = globTest(args.pattern);
  const start = await inside(root, args.path, "path", true);
  const budget = { entries: MAX_WALK_ENTRIES };
  const found: string[] = [];
  for await (const file of walk(start, signal, budget)) {
    const rel = posix(root, file);
    if (matches(rel)) found.push(rel);
    if (found.length >= MAX_LISTED) break;
  }
  return listing(found, budget, "no files match");
}

async function grepTool(
  root: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string> {
  if (typeof args.pattern !== "string" || args.pattern === "") {
    throw new ToolProblem("pattern: expected a regular expression");
  }
  let re: ReturnType<typeof linearRegex>;
  try {
    re = linearRegex(args.pattern);
  } catch (error) {
    throw new ToolProblem(`pattern: ${(error as Error).message}`);
  }
  const only = args.glob === undefined ? () => true : globTest(args.glob);
  const start = await inside(root, args.path, "path", true);
  const budget = { entries: MAX_WALK_ENTRIES };
  const found: string[] = [];
  let read = 0;
  let stopped: string | undefined;
  for await (const file of walk(start, signal, budget)) {
    if (read > MAX_GREP_CHARS) {
      stopped = `(stopped after reading ${MAX_GREP_CHARS} characters)`;
      break;
    }
    const rel = posix(root, file);
    if (!only(rel)) continue;
    let text: string | { problem: string };
    try {
      // The walk lists by name: a folder swapped for a symlink mid-walk is caught here.
      text = await readRegularFile(file, MAX_READ_FILE_BYTES, { noFollow: true, inside: root });
    } catch {
      continue;
    }
    if (typeof text !== "string" || text.includes("\0")) continue;
    read += text.length;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length && found.length < MAX_LISTED; i++) {
      if (re.test(lines[i]!)) found.push(`${rel}:${i + 1}: ${clipText(lines[i]!, 300)}`);
    }
    if (found.length >= MAX_LISTED) break;
  }
  return listing(found, budget, "no lines match", stopped);
}

function listing(
  found: string[],
  budget: { entries: number },
  none: string,
  ...notes: (string | undefined)[]
): string {
  if (found.length >= MAX_LISTED) notes.push(`(stopped at ${MAX_LISTED} results)`);
  if (budget.entries <= 0) notes.push(`(stopped after ${MAX_WALK_ENTRIES} directory entries)`);
  return [...(found.length ? found : [none]), ...notes.filter((n) => n !== undefined)].join("\n");
}

/**
 * Run one of {@link AGENT_TOOLS} for the model, confined to `projectDir`: the answer text, or
 * `error: …` when the call is bad (the model reads it and may try again). Never writes.
 */
export async function runAgentTool(
  projectDir: string,
  name: string,
  rawArgs: string,
  signal: AbortSignal,
): Promise<string> {
  try {
    let args: unknown;
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch {
      throw new ToolProblem("the arguments are not valid JSON");
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new ToolProblem("the arguments must be a JSON object");
    }
    const root = await realpath(projectDir);
    const a = args as Record<string, unknown>;
    const result =
      name === "Read"
        ? await readTool(root, a)
        : name === "Grep"
          ? await grepTool(root, a, signal)
          : name === "Glob"
            ? await globTool(root, a, signal)
            : undefined;
    if (result === undefined)
      throw new ToolProblem(
        `unknown tool ${JSON.stringify(clipText(name, 64))}; use Read, Grep or Glob`,
      );
    return clipText(result, MAX_TOOL_RESULT_CHARS);
  } catch (error) {
    if (error instanceof ToolProblem) return `error: ${error.message}`;
    throw error;
  }
}
