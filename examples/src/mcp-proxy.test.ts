import { describe, expect, it } from "vitest";
import { mcpProxySession } from "./mcp-proxy.js";

describe("mcp-proxy example", () => {
  it("redacts the token a read returned and blocks the write, with the real filesystem server", async () => {
    const lines: string[] = [];
    const run = await mcpProxySession((line) => lines.push(line));
    expect(run.tools).toBeGreaterThan(5);
    expect(run.read).toBe("REGION=eu\nTOKEN=[redacted]\n");
    expect(run.write).toEqual({
      isError: true,
      text: "mcp__files__write_file was blocked by a hook: this folder is read-only",
    });
    expect(lines.join("\n")).not.toContain("sk-live-123");
  });
});
