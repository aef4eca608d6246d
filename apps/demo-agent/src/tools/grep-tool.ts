import { Worker } from "node:worker_threads";
import {
  type OpenedEntry,
  WorkspacePathError,
  type WorkspaceRoot,
  walkFiles,
} from "@a3s-lab/hooks-node/workspace";
import picomatch from "picomatch";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool, useWorkspace, WALK_ENTRY_LIMIT } from "./tool.js";

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
 * The matching, run in a worker thread: a regular expression from a model can backtrack for
 * ever (`(a+)+!`), and only a thread can be stopped in the middle of one `test`. The worker is
 * handed each file's text, never a name to open: the name could be a symlink by then.
 * A file name with a control character or a quote is written as a JSON string, so a name with
 * a newline cannot pass for a match line of its own.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { pattern, flags, lineLimit, resultLimit } = workerData;
const re = new RegExp(pattern, flags);
let found = 0;
parentPort.on("message", ([rel, text]) => {
  const name = /[\\u0000-\\u001f\\u007f"]/.test(rel) ? JSON.stringify(rel) : rel;
  const hits = [];
  let more = false;
  const lines = text.split("\\n");
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i].slice(0, lineLimit))) continue;
    if (found === resultLimit) { more = true; break; }
    found++;
    hits.push(name + ":" + (i + 1) + ": " + lines[i].slice(0, 200));
  }
  parentPort.postMessage({ hits, more });
});
`;

interface SearchResult {
  hits: string[];
  more: boolean;
}

/** Feed `files` (relative path and text) to a matching worker, one at a time, within `timeout`. */
async function search(
  files: AsyncGenerator<[string, string]>,
  workerData: Record<string, unknown>,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<SearchResult> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  let stop!: (error: AgentError) => void;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => {});
  const timer = setTimeout(
    () =>
      stop(
        new AgentError(
          "TIMEOUT",
          `Grep: the search took longer than ${timeout} ms; simplify the pattern`,
          { path: ["args", "pattern"] },
        ),
      ),
    timeout,
  );
  const onAbort = () => stop(new AgentError("ABORTED", "Grep: cancelled"));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  worker.once("error", (error) =>
    stop(new AgentError("TOOL_FAILED", `Grep: ${error.message}`, { cause: error })),
  );
  const replies: ((result: SearchResult) => void)[] = [];
  worker.on("message", (result: SearchResult) => replies.shift()?.(result));
  try {
    const hits: string[] = [];
    for (;;) {
      const next = await Promise.race([files.next(), stopped]);
      if (next.done) return { hits, more: false };
      const reply = new Promise<SearchResult>((resolve) => replies.push(resolve));
      worker.postMessage(next.value);
      const result = await Promise.race([reply, stopped]);
      hits.push(...result.hits);
      if (result.more) return { hits, more: true };
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    void worker.terminate();
    // Let the file walk close what it holds before the working directory is closed.
    await files.return(undefined).catch(() => {});
  }
}

/** Read a file the walk found; undefined when it changed into something not to read. */
async function readCandidate(root: WorkspaceRoot, file: string): Promise<string | undefined> {
  const opened = await root
    .open(file, "read", { field: ["path"], followSymlinks: false })
    .catch((error: unknown) => {
      // Gone, swapped for a symlink or a FIFO since it was listed: not searched.
      if (error instanceof WorkspacePathError && error.reason !== "TOOL_FAILED") return undefined;
      throw error;
    });
  if (opened === undefined) return undefined;
  try {
    return await readSmall(opened);
  } finally {
    await opened.handle.close();
  }
}

async function readSmall({ handle, stat }: OpenedEntry): Promise<string | undefined> {
  if (stat.size > GREP_FILE_LIMIT) return undefined;
  const buffer = Buffer.alloc(stat.size);
  const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
  return buffer.subarray(0, bytesRead).toString("utf8");
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
    return useWorkspace(ctx.workdir, async (root) => {
      const target = await root.open(input.path ?? ".", "read", {
        field: ["args", "path"],
        allowFolder: true,
      });
      async function* texts(): AsyncGenerator<[string, string]> {
        if (target.stat.isFile()) {
          try {
            const text = await readSmall(target);
            if (text !== undefined && (!filter || filter(target.relative)))
              yield [target.relative, text];
          } finally {
            await target.handle.close();
          }
          return;
        }
        await target.handle.close();
        const budget = { entries: WALK_ENTRY_LIMIT };
        // Without the signal, a cancelled search would wait for the walk to end (see search).
        const signal = ctx.signal;
        for await (const file of walkFiles(root, target.relative, { budget, signal })) {
          if (filter && !filter(file)) continue;
          const text = await readCandidate(root, file);
          if (text !== undefined) yield [file, text];
        }
      }
      const { hits, more } = await search(
        texts(),
        {
          pattern: input.pattern,
          flags,
          lineLimit: GREP_LINE_LIMIT,
          resultLimit: GREP_RESULT_LIMIT,
        },
        input.timeout ?? GREP_DEFAULT_TIMEOUT,
        ctx.signal,
      );
      if (hits.length === 0) return { output: "no matches" };
      return {
        output: hits.join("\n") + (more ? `\n[more than ${GREP_RESULT_LIMIT} matches]` : ""),
      };
    });
  },
});
