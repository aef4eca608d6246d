import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runMcpProxyCli } from "./run-mcp-proxy-cli.js";

function io() {
  let stderr = "";
  return {
    io: {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: { write: (s: string | Uint8Array) => (stderr += String(s)) },
      cwd: "/",
      home: "/nonexistent-home",
      env: {},
    },
    stderr: () => stderr,
  };
}

describe("runMcpProxyCli: bad usage exits 1 with the field named, before any server starts", () => {
  it.each([
    [["--"], "missing the MCP server's command"],
    [["--permission", "maybe", "--", "x"], "--permission: expected allow or deny"],
    [["--serve-hooks", "80000", "--", "x"], "--serve-hooks: expected a port number"],
    [
      ["--serve-hooks", "0", "--allow-origin", "*", "--", "x"],
      "--allow-origin: expected an origin",
    ],
    [["--allow-origin", "https://a.example", "--", "x"], "--allow-origin: only with --serve-hooks"],
    [["--no-such-flag", "--", "x"], "--no-such-flag"],
  ])("%j", async (argv, message) => {
    const out = io();
    expect(await runMcpProxyCli(argv, out.io)).toBe(1);
    expect(out.stderr()).toContain(message);
  });

  it("prints its usage for --help and exits 0", async () => {
    const out = io();
    expect(await runMcpProxyCli(["--help"], out.io)).toBe(0);
    expect(out.stderr()).toContain("usage: a3s-hooks mcp-proxy");
  });
});

describe("runMcpProxyCli: hooks that cannot run", () => {
  it("refuses to start when a settings file has a hook it cannot register, instead of running without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a3s-mcp-cli-"));
    try {
      const file = join(dir, "settings.json");
      writeFileSync(
        file,
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: "mcp__fs__(", hooks: [{ type: "command", command: "exit 2" }] },
            ],
          },
        }),
      );
      const out = io();
      // A client that hangs up at once: without the refusal the proxy would serve, then end with 0.
      out.io.stdin.end();
      expect(
        await runMcpProxyCli(["--no-defaults", "--settings", file, "--", "true"], out.io),
      ).toBe(1);
      expect(out.stderr()).toContain("refusing to start");
      expect(out.stderr()).toContain("mcp__fs__(");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
