/**
 * A client in another language: Python stubs generated from hooks.proto with Debian's
 * python3-grpc-tools, registering a blocking hook against the real hook server.
 * CI installs `python3-grpcio` and `python3-grpc-tools` (Debian) when they are missing.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hooksProtoPath } from "../../src/grpc/hooks-proto.js";
import { createHookServer, type HookServer } from "../../src/server/create-hook-server.js";

// Debian's interpreter, where apt installs grpc_tools; a pyenv or venv python on PATH may not have it.
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const SCRIPT = fileURLToPath(new URL("python/blocking_hook.py", import.meta.url));
const TOKEN = "python-token";

let stubs: string;
let engine: HookEngine;
let server: HookServer;
let python: ChildProcessWithoutNullStreams;
const lines: Record<string, unknown>[] = [];
let waiters: (() => void)[] = [];
/** How many of `lines` the test has read: a line that arrives early waits here for its turn. */
let read = 0;

function nextLine(): Promise<Record<string, unknown>> {
  const index = read++;
  return new Promise((resolve, reject) => {
    const check = () => (lines.length > index ? resolve(lines[index]!) : waiters.push(check));
    python.once("exit", (code) => reject(new Error(`python exited with ${code} before printing`)));
    check();
  });
}

beforeAll(async () => {
  stubs = mkdtempSync(join(tmpdir(), "a3s-py-stubs-"));
  execFileSync(PYTHON, [
    "-m",
    "grpc_tools.protoc",
    `-I${dirname(hooksProtoPath())}`,
    `--python_out=${stubs}`,
    `--grpc_python_out=${stubs}`,
    "hooks.proto",
  ]);
  engine = new HookEngine();
  server = await createHookServer({ engine, port: 0, token: TOKEN });
  python = spawn(PYTHON, [SCRIPT, stubs, server.address, TOKEN, "python-client"]);
  python.stderr.pipe(process.stderr);
  createInterface({ input: python.stdout }).on("line", (line) => {
    lines.push(JSON.parse(line));
    const pending = waiters;
    waiters = [];
    for (const w of pending) w();
  });
}, 30_000);

afterAll(async () => {
  if (python && python.exitCode === null) {
    const exited = new Promise((resolve) => python.once("exit", resolve));
    python.stdin.end();
    await exited;
  }
  await server?.close();
  if (stubs) rmSync(stubs, { recursive: true, force: true });
});

describe("a Python client generated from hooks.proto", () => {
  it("handshakes, registers a blocking hook, and answers the agent", async () => {
    expect(await nextLine()).toEqual({ resumed: "false", secretLength: 43 });
    expect(await nextLine()).toEqual({ withoutSecret: "UNAUTHENTICATED" });
    expect(await nextLine()).toEqual({ ready: ["py-guard"] });
    expect(engine.list()).toMatchObject([
      {
        source: "remote:python-client",
        name: "python-guard",
        priority: -1,
        failBehavior: "block",
        timeout: 5000,
      },
    ]);

    const blocked = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "rm -rf /" } }),
    );
    expect(blocked.action).toBe("block");
    expect(blocked.reason).toBe("blocked from Python: rm -rf /");

    const allowed = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "ls" } }),
    );
    expect(allowed.action).toBe("continue");
    expect(allowed.event.args).toEqual({ command: "ls", checked_by: "python" });

    // The matcher runs in the agent: Python never sees this one.
    const other = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s1", tool: "Read", args: {} }),
    );
    expect(other.outcomes).toEqual([]);
  });
});
