import { lstat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { defineTool, useWorkspace } from "./tool.js";
import { writeFileSafely } from "./write-file-safely.js";

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
      const existed = await lstat(path.resolve(ctx.workdir, input.file_path)).then(
        () => true,
        () => false,
      );
      const file = await root.open(input.file_path, "write", { field: ["args", "file_path"] });
      try {
        await writeFileSafely(file.handle, input.content);
      } finally {
        await file.handle.close();
      }
      await ctx.fileChanged?.(path.join(ctx.workdir, file.relative), existed ? "change" : "add");
      const bytes = Buffer.byteLength(input.content);
      return { output: `wrote ${bytes} bytes to ${input.file_path}` };
    }),
});
