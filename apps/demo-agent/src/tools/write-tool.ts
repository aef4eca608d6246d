import { stat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { defineTool, useWorkspace } from "./tool.js";
import { ownWrite, writeFileSafely } from "./write-file-safely.js";

/** The largest file Write accepts, in characters. */
export const WRITE_LIMIT = 5_000_000;

export const writeInputSchema = z.strictObject({
  file_path: z.string().min(1),
  content: z.string().max(WRITE_LIMIT),
});

/** Creates or overwrites a file inside the working directory (folders are created). */
export const writeTool = defineTool({
  name: "Write",
  description: "Create or overwrite a file inside the working directory.",
  inputSchema: writeInputSchema,
  readOnly: false,
  run: (input, ctx) =>
    useWorkspace(ctx.workdir, async (root) => {
      const target = path.resolve(ctx.workdir, input.file_path);
      // Through a symlink inside, the file that exists (or not) is its target.
      const existed = await stat(target).then(
        () => true,
        () => false,
      );
      let written = target;
      // The open is part of the write: creating the file is already a change a watcher sees.
      await ownWrite(ctx, target, async () => {
        const file = await root.open(input.file_path, "write", { field: ["args", "file_path"] });
        // FileChanged names the file written, not a symlink to it (a hook's matcher sees its name).
        written = path.join(ctx.workdir, file.relative);
        try {
          await writeFileSafely(file.handle, input.content);
          return await file.handle.stat();
        } finally {
          await file.handle.close();
        }
      });
      await ctx.fileChanged?.(written, existed ? "change" : "add");
      const bytes = Buffer.byteLength(input.content);
      return { output: `wrote ${bytes} bytes to ${input.file_path}` };
    }),
});
