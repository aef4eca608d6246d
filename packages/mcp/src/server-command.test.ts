import { describe, expect, it } from "vitest";
import { mcpToolName, OutputTail, serverNameOf } from "./server-command.js";

describe("serverNameOf", () => {
  it("uses the given name, or the command's file name, with unsafe characters replaced", () => {
    expect(serverNameOf({ command: "/usr/bin/mcp-server-filesystem.js" })).toBe(
      "mcp-server-filesystem",
    );
    expect(serverNameOf({ command: "npx", name: "git hub.com" })).toBe("git_hub_com");
    expect(mcpToolName("fs", "read_file")).toBe("mcp__fs__read_file");
  });
});

describe("OutputTail", () => {
  it("keeps the last bytes, marking the cut", () => {
    const tail = new OutputTail(8);
    for (const chunk of ["first line\n", "0123", "456789"]) tail.push(chunk);
    expect(tail.text()).toBe("…23456789");
  });

  it("keeps everything below the limit", () => {
    const tail = new OutputTail(100);
    tail.push("died: ENOENT\n");
    expect(tail.text()).toBe("died: ENOENT");
  });
});
