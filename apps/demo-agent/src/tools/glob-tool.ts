import picomatch from "picomatch";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { resolveWorkspacePath } from "../workspace-path.js";
import { defineTool } from "./tool.js";
import { walkFiles } from "./walk-files.js";

/** At most this many paths are listed. */
export const GLOB_RESULT_LIMIT = 500;

export const globInputSchema = z.strictObject({
  pattern: z.string().min(1).max(1000),
  /** The folder to search, inside the working directory. Default: the working directory. */
  path: z.string().min(1).optional(),
});

/** Lists files matching a glob (`**\/*.md`), relative to the working directory. */
export const globTool = defineTool({
  name: "Glob",
  description:
    "List files matching a glob pattern such as **/*.md, relative to the working directory.",
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
    const root = await resolveWorkspacePath(ctx.workdir, ".", ["workdir"]);
    const dir = await resolveWorkspacePath(ctx.workdir, input.path ?? ".", ["args", "path"]);
    const found: string[] = [];
    let more = false;
    for await (const file of walkFiles(root, dir)) {
      if (!isMatch(file)) continue;
      if (found.length === GLOB_RESULT_LIMIT) {
        more = true;
        break;
      }
      found.push(file);
    }
    if (found.length === 0) return { output: "no files match" };
    return { output: found.join("\n") + (more ? `\n[more than ${GLOB_RESULT_LIMIT} files]` : "") };
  },
});
