import * as z from "zod";
import { resolveWorkspacePath } from "../workspace-path.js";
import { defineTool } from "./tool.js";
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
  async run(input, ctx) {
    const file = await resolveWorkspacePath(ctx.workdir, input.file_path, ["args", "file_path"]);
    await writeFileSafely(file, input.content);
    const bytes = Buffer.byteLength(input.content);
    return { output: `wrote ${bytes} bytes to ${input.file_path}` };
  },
});
