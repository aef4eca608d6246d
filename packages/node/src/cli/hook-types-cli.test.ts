import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let io: MemoryIo;
let server: Server | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-types-cli-"));
  mkdirSync(join(root, "home"));
  io = memoryIo({
    cwd: root,
    home: join(root, "home"),
    env: {},
  });
});
afterEach(async () => {
  rmSync(root, { recursive: true, force: true });
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = undefined;
  }
});

/** A policy server on 127.0.0.1 that denies `rm` and allows the rest. */
async function policyServer(): Promise<string> {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const input = JSON.parse(body) as { tool_input?: { command?: string } };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        input.tool_input?.command?.startsWith("rm")
          ? JSON.stringify({
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                permissionDecision: "deny",
                permissionDecisionReason: "the policy server says no",
              },
            })
          : "",
      );
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/policy`;
}

function settingsFile(hooks: unknown[]): string {
  const file = join(root, "settings.json");
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } }));
  return file;
}

const test = (file: string, command: string, ...more: string[]) =>
  runCli(
    [
      "test",
      "PreToolUse",
      "--tool",
      "Bash",
      "--args",
      JSON.stringify({ command }),
      "--settings",
      file,
      "--no-defaults",
      ...more,
    ],
    io,
  );

describe("a3s-hooks with every hook type", () => {
  it("test runs an http hook against a real server: a deny blocks (exit 2), the status message shows", async () => {
    const file = settingsFile([
      { type: "http", url: await policyServer(), statusMessage: "Asking the policy server" },
    ]);
    expect(await test(file, "rm -rf /")).toBe(2);
    expect(io.out).toContain(`PreToolUse [Bash] POST http://127.0.0.1:`);
    expect(io.out).toContain("  status: Asking the policy server");
    expect(io.out).toContain("Result: block: the policy server says no");
    io.out = "";
    expect(await test(file, "ls")).toBe(0);
    expect(io.out).toContain("Result: continue");
  });

  it("test --json carries the status message and what an asyncRewake hook would wake the model with", async () => {
    const file = settingsFile([
      { command: "echo 'lint failed' >&2; exit 2", asyncRewake: true, statusMessage: "Linting" },
    ]);
    expect(await test(file, "ls", "--json")).toBe(0);
    const out = JSON.parse(io.out) as { action: string; hooks: Record<string, unknown>[] };
    expect(out.action).toBe("continue");
    expect(out.hooks[0]).toMatchObject({ statusMessage: "Linting", asyncRewake: "lint failed" });
  });

  it("list and validate name a hook that cannot run here, and why", async () => {
    const file = settingsFile([{ type: "prompt", prompt: "Is this safe? $ARGUMENTS" }]);
    expect(await runCli(["list", "--settings", file, "--no-defaults"], io)).toBe(0);
    expect(io.out).toMatch(
      /Not running:\n {2}PreToolUse \[Bash\] prompt: Is this safe\? \$ARGUMENTS .*\n(?: {4}from .*\n)? {4}unavailable: cannot run here: .*no model is configured/,
    );
    io.out = "";
    expect(await runCli(["validate", "--settings", file, "--no-defaults"], io)).toBe(0);
    expect(io.out).toMatch(
      /Cannot run here:\n {2}PreToolUse \[Bash\] prompt: .*\n {4}unavailable: /,
    );
  });
});
