import { resolve, sep } from "node:path";
import type { HookEvent } from "@a3s-lab/hooks-core";
import { clipText, compileMatcher } from "@a3s-lab/hooks-core/internal";
import { linearRegex } from "../../support/linear-regex.js";
import { isInside, readOpenFile } from "../../workspace/read-regular-file.js";
import { MAX_WALK_DEPTH, type WalkBudget, walkFiles } from "../../workspace/walk-files.js";
import { WorkspacePathError } from "../../workspace/workspace-path-error.js";
import { type OpenedEntry, WorkspaceRoot } from "../../workspace/workspace-root.js";
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

/**
 * Open `path` (a file, or a folder when `allowFolder`) inside the project, through `root`, or
 * throw a ToolProblem the model can read. A path that lands outside by its spelling alone
 * (`..`, an absolute path elsewhere) is refused before anything is opened.
 */
async function openInside(
  root: WorkspaceRoot,
  path: unknown,
  what: string,
  allowFolder: boolean,
): Promise<OpenedEntry> {
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new ToolProblem(`${what}: expected a path`);
  }
  if (!isInside(root.path, resolve(root.path, path))) {
    throw new ToolProblem(`${what}: outside the project directory`);
  }
  try {
    return await root.open(path, "read", { field: [what], allowFolder });
  } catch (error) {
    throw toolProblem(error);
  }
}

/** A refused path as the ToolProblem the model reads; anything else as it is. */
function toolProblem(error: unknown): unknown {
  if (!(error instanceof WorkspacePathError)) return error;
  // The errno keeps the answer familiar to a model ("ENOENT").
  const errno = error.details.errno;
  return new ToolProblem(
    error.reason === "NOT_FOUND" && typeof errno === "string"
      ? `${error.message} (${errno})`
      : error.message,
  );
}

/**
 * The files under `path` (the project when absent; just the file itself when it names a file),
 * relative to the project, walked through `root` so no folder swapped for a symlink is followed.
 */
async function* filesUnder(
  root: WorkspaceRoot,
  path: unknown,
  signal: AbortSignal,
  budget: WalkBudget,
): AsyncGenerator<string> {
  const start = await openInside(root, path ?? ".", "path", true);
  await start.handle.close();
  if (start.stat.isFile()) {
    yield start.relative;
    return;
  }
  try {
    yield* walkFiles(root, start.relative, { budget, signal });
  } catch (error) {
    // The folder itself swapped for a symlink since it was opened above.
    throw toolProblem(error);
  }
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

function posix(relative: string): string {
  return relative.split(sep).join("/");
}

/** A file the walk listed, opened again through `root` (following nothing), and read. */
async function readListed(root: WorkspaceRoot, file: string): Promise<string | undefined> {
  let opened: OpenedEntry;
  try {
    opened = await root.open(file, "read", { field: ["path"], followSymlinks: false });
  } catch {
    // Gone, or swapped for a symlink or a FIFO since it was listed: not searched.
    return undefined;
  }
  try {
    const text = await readOpenFile(opened.handle, MAX_READ_FILE_BYTES);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  } finally {
    await opened.handle.close();
  }
}

async function readTool(root: WorkspaceRoot, args: Record<string, unknown>): Promise<string> {
  const file = await openInside(root, args.file_path, "file_path", false);
  let text: string | { problem: string };
  try {
    text = await readOpenFile(file.handle, MAX_READ_FILE_BYTES);
  } catch (error) {
    throw new ToolProblem(
      `file_path: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`,
    );
  } finally {
    await file.handle.close();
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
  root: WorkspaceRoot,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string> {
  const matches = globTest(args.pattern);
  const budget: WalkBudget = { entries: MAX_WALK_ENTRIES };
  const found: string[] = [];
  for await (const file of filesUnder(root, args.path, signal, budget)) {
    const rel = posix(file);
    if (matches(rel)) found.push(rel);
    if (found.length >= MAX_LISTED) break;
  }
  return listing(found, budget, "no files match");
}

async function grepTool(
  root: WorkspaceRoot,
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
  const budget: WalkBudget = { entries: MAX_WALK_ENTRIES };
  const found: string[] = [];
  let read = 0;
  let stopped: string | undefined;
  for await (const file of filesUnder(root, args.path, signal, budget)) {
    if (read > MAX_GREP_CHARS) {
      stopped = `(stopped after reading ${MAX_GREP_CHARS} characters)`;
      break;
    }
    const rel = posix(file);
    if (!only(rel)) continue;
    const text = await readListed(root, file);
    if (text === undefined || text.includes("\0")) continue;
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
  budget: WalkBudget,
  none: string,
  ...notes: (string | undefined)[]
): string {
  if (found.length >= MAX_LISTED) notes.push(`(stopped at ${MAX_LISTED} results)`);
  if (budget.stopped) notes.push(`(stopped after ${MAX_WALK_ENTRIES} directory entries)`);
  if (budget.tooDeep) {
    notes.push(`(folders more than ${MAX_WALK_DEPTH} levels below the path were not searched)`);
  }
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
    const a = args as Record<string, unknown>;
    const run =
      name === "Read"
        ? (root: WorkspaceRoot) => readTool(root, a)
        : name === "Grep"
          ? (root: WorkspaceRoot) => grepTool(root, a, signal)
          : name === "Glob"
            ? (root: WorkspaceRoot) => globTool(root, a, signal)
            : undefined;
    // Every path is opened relative to the project's open descriptor, one folder at a time,
    // following no symlink out: a folder swapped for one mid-walk is skipped, not followed.
    const result =
      run && (await WorkspaceRoot.use(projectDir, run, { name: "the project directory" }));
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
