import * as z from "zod";
import { defineTool, useWorkspace } from "./tool.js";

/** Bytes read at most; the rest of a bigger file is left out and noted. */
export const READ_BYTE_LIMIT = 1_000_000;

export const readInputSchema = z.strictObject({
  file_path: z.string().min(1),
  /** First line to return, 1-based. */
  offset: z.number().int().positive().optional(),
  /** How many lines to return. */
  limit: z.number().int().positive().max(100_000).optional(),
});

/** Reads a text file inside the working directory; FIFOs, sockets and devices are refused. */
export const readTool = defineTool({
  name: "Read",
  description:
    "Read a text file inside the working directory. Optional 1-based line offset and limit.",
  inputSchema: readInputSchema,
  readOnly: true,
  run: (input, ctx) =>
    useWorkspace(ctx.workdir, async (root) => {
      const { handle, stat } = await root.open(input.file_path, "read", {
        field: ["args", "file_path"],
      });
      try {
        const size = Math.min(stat.size, READ_BYTE_LIMIT);
        const buffer = Buffer.alloc(size);
        const { bytesRead } = await handle.read(buffer, 0, size, 0);
        let text = buffer.subarray(0, bytesRead).toString("utf8");
        if (input.offset !== undefined || input.limit !== undefined) {
          const start = (input.offset ?? 1) - 1;
          const lines = text.split("\n");
          text = lines
            .slice(start, input.limit === undefined ? undefined : start + input.limit)
            .join("\n");
        }
        if (stat.size > READ_BYTE_LIMIT)
          text += `\n[file truncated: ${stat.size} bytes, showed ${READ_BYTE_LIMIT}]`;
        return { output: text };
      } finally {
        await handle.close();
      }
    }),
});
