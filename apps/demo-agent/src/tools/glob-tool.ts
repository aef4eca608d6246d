import { walkFiles } from "@a3s-lab/hooks-node/workspace";
import picomatch from "picomatch";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool, useWorkspace, WALK_ENTRY_LIMIT } from "./tool.js";

/** At most this many paths are listed. */
export const GLOB_RESULT_LIMIT = 500;

export const globInputSchema = z.strictObject({
  pattern: z.string().min(1).max(1000),
  /** The folder to search, inside the working directory. Default: the working directory. */
  path: z.string().min(1).optional(),
});

/**
 * Lists files matching a glob (`**\/*.md`), relative to the working directory. The answer is
 * JSON, `{"files":["docs/a.md"],"truncated":false}`, because a file name may contain a newline:
 * one name per line would let a file named `a\nsecret.txt` pass for two files.
 */
export const globTool = defineTool({
  name: "Glob",
  description: `List files matching a glob pattern such as **/*.md. Answers JSON: {"files": [paths relative to the working directory], "truncated": true when more than ${GLOB_RESULT_LIMIT} matched}.`,
  inputSchema: globInputSchema,
  readOnly: true,
  async run(input, ctx) {
    let isMatch: (path: string) => boolean;
    try {
      isMatch = picomatch(input.pattern, { dot: false });
    } catch (error) {
      throw new AgentError(
        "INVALID_INPUT",
        `Glob: invalid pattern ${JSON.stringify(input.pattern)}`,
        {
          path: ["args", "pattern"],
          cause: error,
        },
      );
    }
    return useWorkspace(ctx.workdir, async (root) => {
      const dir = await root.open(input.path ?? ".", "folder", { field: ["args", "path"] });
      await dir.handle.close();
      const files: string[] = [];
      let truncated = false;
      const budget = { entries: WALK_ENTRY_LIMIT };
      const signal = ctx.signal;
      for await (const file of walkFiles(root, dir.relative, { budget, signal })) {
        if (!isMatch(file)) continue;
        if (files.length === GLOB_RESULT_LIMIT) {
          truncated = true;
          break;
        }
        files.push(file);
      }
      // The walk ends quietly when cancelled; a partial list must not pass for the answer.
      if (signal?.aborted) throw new AgentError("ABORTED", "Glob: cancelled");
      return { output: JSON.stringify({ files, truncated }) };
    });
  },
});
