import path from "node:path";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool, useWorkspace } from "./tool.js";
import { ownWrite, writeFileSafely } from "./write-file-safely.js";
import { WRITE_LIMIT } from "./write-tool.js";

export const editInputSchema = z.strictObject({
  file_path: z.string().min(1),
  old_string: z.string().min(1).max(WRITE_LIMIT),
  new_string: z.string().max(WRITE_LIMIT),
  /** Replace every occurrence; otherwise `old_string` must occur exactly once. */
  replace_all: z.boolean().optional(),
});

/** Replaces text in a file inside the working directory. */
export const editTool = defineTool({
  name: "Edit",
  description:
    "Replace old_string with new_string in a file. old_string must occur exactly once unless replace_all is true.",
  inputSchema: editInputSchema,
  readOnly: false,
  run: (input, ctx) =>
    useWorkspace(ctx.workdir, async (root) => {
      // One handle for the read and the write, so the file edited is the file read.
      const { handle, stat, relative } = await root.open(input.file_path, "update", {
        field: ["args", "file_path"],
      });
      try {
        if (stat.size > WRITE_LIMIT) {
          throw new AgentError(
            "INVALID_INPUT",
            `args.file_path: ${JSON.stringify(input.file_path)} is ${stat.size} bytes; Edit works on files up to ${WRITE_LIMIT}`,
            { path: ["args", "file_path"] },
          );
        }
        const text = await handle.readFile("utf8");
        const count = text.split(input.old_string).length - 1;
        if (count === 0) {
          throw new AgentError(
            "NOT_FOUND",
            `Edit: old_string does not occur in ${input.file_path}`,
            { path: ["args", "old_string"] },
          );
        }
        if (count > 1 && !input.replace_all) {
          throw new AgentError(
            "INVALID_INPUT",
            `Edit: old_string occurs ${count} times in ${input.file_path}; make it unique or set replace_all`,
            { path: ["args", "old_string"] },
          );
        }
        // split/join, not String.replace: a "$&" in new_string must stay literal.
        const next = input.replace_all
          ? text.split(input.old_string).join(input.new_string)
          : text.replace(input.old_string, () => input.new_string);
        const file = path.join(ctx.workdir, relative);
        await ownWrite(ctx, file, async () => {
          await writeFileSafely(handle, next);
          return handle.stat();
        });
        await ctx.fileChanged?.(file, "change");
        return {
          output: `replaced ${input.replace_all ? count : 1} occurrence(s) in ${input.file_path}`,
        };
      } finally {
        await handle.close();
      }
    }),
});
