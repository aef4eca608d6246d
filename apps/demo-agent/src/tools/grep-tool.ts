import { stat } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import picomatch from "picomatch";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { resolveWorkspacePath } from "../workspace-path.js";
import { defineTool } from "./tool.js";
import { walkFiles } from "./walk-files.js";

/** Matches listed at most. */
export const GREP_RESULT_LIMIT = 200;
/** Files bigger than this are skipped; lines longer than this are cut before matching. */
export const GREP_FILE_LIMIT = 1_000_000;
export const GREP_LINE_LIMIT = 2_000;
/** Default time a search may take, in milliseconds. */
export const GREP_DEFAULT_TIMEOUT = 5_000;

export const grepInputSchema = z.strictObject({
  /** A JavaScript regular expression. */
  pattern: z.string().min(1).max(1000),
  /** A file or folder inside the working directory. Default: the working directory. */
  path: z.string().min(1).optional(),
  /** Only search files whose relative path matches this glob. */
  glob: z.string().min(1).max(1000).optional(),
  ignore_case: z.boolean().optional(),
  /** Milliseconds before the search is stopped. */
  timeout: z.number().int().positive().max(60_000).optional(),
});

/**
 * The matching loop, run in a worker thread: a regular expression from a model can backtrack
 * for ever (`(a+)+!`), and only a thread can be stopped in the middle of one `test`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { pattern, flags, files, lineLimit, resultLimit } = workerData;
const re = new RegExp(pattern, flags);
const hits = [];
let more = false;
outer: for (const [rel, full] of files) {
  let text;
  try { text = readFileSync(full, "utf8"); } catch { continue; }
  const lines = text.split("\\n");
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i].slice(0, lineLimit))) continue;
    if (hits.length === resultLimit) { more = true; break outer; }
    hits.push(rel + ":" + (i + 1) + ": " + lines[i].slice(0, 200));
  }
}
parentPort.postMessage({ hits, more });
`;

interface SearchResult {
  hits: string[];
  more: boolean;
}

function search(
  workerData: Record<string, unknown>,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<SearchResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new AgentError(
              "TIMEOUT",
              `Grep: the search took longer than ${timeout} ms; simplify the pattern`,
              {
                path: ["args", "pattern"],
              },
            ),
          ),
        ),
      timeout,
    );
    const onAbort = () => finish(() => reject(new AgentError("ABORTED", "Grep: cancelled")));
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (result: SearchResult) => finish(() => resolve(result)));
    worker.once("error", (error) =>
      finish(() =>
        reject(new AgentError("TOOL_FAILED", `Grep: ${error.message}`, { cause: error })),
      ),
    );
  });
}

/** Searches file contents with a regular expression; answers `file:line: text`. */
export const grepTool = defineTool({
  name: "Grep",
  description:
    "Search file contents with a regular expression. Answers file:line: text for each matching line.",
  inputSchema: grepInputSchema,
  readOnly: true,
  async run(input, ctx) {
    const flags = input.ignore_case ? "i" : "";
    try {
      new RegExp(input.pattern, flags);
    } catch (error) {
      throw new AgentError(
        "INVALID_INPUT",
        `Grep: args.pattern: invalid regular expression ${JSON.stringify(input.pattern)}`,
        { path: ["args", "pattern"], cause: error },
      );
    }
    const filter = input.glob ? picomatch(input.glob) : undefined;
    const root = await resolveWorkspacePath(ctx.workdir, ".", ["workdir"]);
    const target = await resolveWorkspacePath(ctx.workdir, input.path ?? ".", ["args", "path"]);
    const info = await stat(target).catch((error: unknown) => {
      throw AgentError.from(error, "TOOL_FAILED");
    });
    const candidates = info.isFile()
      ? single(path.relative(root, target))
      : walkFiles(root, target);
    const files: [string, string][] = [];
    for await (const file of candidates) {
      if (filter && !filter(file)) continue;
      const full = path.join(root, file);
      if ((await stat(full)).size <= GREP_FILE_LIMIT) files.push([file, full]);
    }
    const { hits, more } = await search(
      {
        pattern: input.pattern,
        flags,
        files,
        lineLimit: GREP_LINE_LIMIT,
        resultLimit: GREP_RESULT_LIMIT,
      },
      input.timeout ?? GREP_DEFAULT_TIMEOUT,
      ctx.signal,
    );
    if (hits.length === 0) return { output: "no matches" };
    return { output: hits.join("\n") + (more ? `\n[more than ${GREP_RESULT_LIMIT} matches]` : "") };
  },
});

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}
