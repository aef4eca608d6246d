import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { A3sClient } from "@a3s-lab/box";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventLogRecord } from "../src/event-log.js";
import { APP_DIR, programArgs, readJsonl, startCli } from "./cli-process.js";
import { checkEventPoints } from "./event-points.js";

let dir: string;
let server: ChildProcess | undefined;
let stderr = "";

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "demo-serve-e2e-")));
  stderr = "";
});
afterEach(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGKILL");
    await new Promise((resolve) => server!.once("close", resolve));
  }
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Start `serve` and wait for its one line on stdout. */
async function serve(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string } = {},
): Promise<{ address: string; stdout: string[] }> {
  // With a cwd of its own, serve picks its working directory as a user's `pnpm serve` does.
  const workdir = options.cwd === undefined ? ["--workdir", dir] : [];
  server = startCli(["serve", ...workdir, ...args], {
    env: { HOME: path.join(dir, "home"), A3S_TOKEN: undefined, ...env },
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
  server.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = "";
    server!.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = /^listening on (.+)$/.exec(line);
        if (m) resolve({ address: m[1]!, stdout: lines });
      }
    });
    server!.once("close", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function runClient(
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, programArgs("sdk-client"), {
    cwd: APP_DIR,
    env: { ...process.env, ...env },
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, stdout: out, stderr: err })),
  );
}

async function stopServer(): Promise<number | null> {
  const s = server!;
  s.kill("SIGTERM");
  return new Promise((resolve) => s.once("close", (code) => resolve(code)));
}

describe("a3s-demo-agent serve with a real A3sClient in another process", () => {
  it("hosts the agent: remote hooks block, sessions, generate, executeTool; every event at its point", async () => {
    const eventsFile = path.join(dir, "events.jsonl");
    const { address, stdout } = await serve([
      "--token",
      "test-token",
      "--permission",
      "allow",
      "--events",
      eventsFile,
    ]);
    expect(stdout).toEqual([`listening on ${address}`]);
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);

    const client = await runClient({ A3S_ADDRESS: address, A3S_TOKEN: "test-token" });
    expect(client.stderr).toBe("");
    expect(client.code).toBe(0);
    const result = JSON.parse(client.stdout.trim().split("\n").at(-1)!);
    expect(result.blocked.text).toContain("Blocked by a hook: remote policy: no rm");
    expect(result.progress).toEqual(expect.arrayContaining(["tool_call", "tool_result"]));
    expect(result.seen).toContain("rm -rf build");
    expect(result.formatted).toEqual([""]);
    expect(result.direct).toMatchObject({ success: true, output: "formatted data.json\n" });
    expect(result.outside).toMatchObject({ success: false });
    expect(result.outside.output).toContain("outside the working directory");
    expect(result.hooks).toBe(2);
    expect(result.destroyed).toBe(true);
    expect(result.unknown).toBe("NOT_FOUND");

    expect(await stopServer()).toBe(0);
    const events = readJsonl<EventLogRecord>(eventsFile);
    expect(checkEventPoints(events)).toEqual([]);
    const start = events.find((r) => r.event.eventType === "SessionStart")?.event;
    expect(start).toMatchObject({ source: "sdk", metadata: { from: "sdk-test" } });
    const pre = events.find(
      (r) => r.event.eventType === "PreToolUse" && JSON.stringify(r.event).includes("rm -rf build"),
    );
    expect(pre?.result).toMatchObject({ action: "block", reason: "remote policy: no rm" });
    expect(events.at(-1)?.event).toMatchObject({ eventType: "SessionEnd" });
  }, 60_000);

  it("makes a token when given none, prints it on stderr, and refuses clients without it", async () => {
    const { address, stdout } = await serve([]);
    expect(stdout).toHaveLength(1);
    const token = /token: (\S+)/.exec(stderr)?.[1];
    // Hex: a token that began with "-" would be read as an option by `--token <token>`.
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const wrong = await runClient({ A3S_ADDRESS: address, A3S_TOKEN: "wrong" });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/UNAUTHENTICATED|token/i);
    expect(await stopServer()).toBe(0);
  }, 60_000);

  it("takes the token from A3S_TOKEN", async () => {
    const { address } = await serve([], { A3S_TOKEN: "env-token" });
    expect(stderr).not.toContain("token:");
    const ok = await runClient({ A3S_ADDRESS: address, A3S_TOKEN: "env-token" });
    expect(ok.code).toBe(0);
    expect(await stopServer()).toBe(0);
  }, 60_000);

  it("works in a fresh temporary folder without --workdir, says which, and removes it at exit", async () => {
    // Started from a checkout: an approved tool call must not act on it.
    const checkout = path.join(dir, "checkout");
    await mkdir(checkout);
    const { address } = await serve(
      ["--permission", "allow", "--token", "t"],
      {},
      { cwd: checkout },
    );
    const line = /^workdir: (\S+) \(temporary, removed at exit; --workdir DIR to choose\)$/m.exec(
      stderr,
    );
    expect(line).not.toBeNull();
    const workdir = line![1]!;
    expect(path.dirname(workdir)).toBe(await realpath(os.tmpdir()));
    const client = new A3sClient({ address, token: "t" });
    try {
      const sessionId = await client.createSession();
      const run = await client.executeTool(sessionId, "Bash", { command: "pwd; touch made-here" });
      expect(run).toMatchObject({ success: true, output: `${workdir}\n` });
      expect(existsSync(path.join(workdir, "made-here"))).toBe(true);
      expect(await readdir(checkout)).toEqual([]);
    } finally {
      await client.close();
    }
    expect(await stopServer()).toBe(0);
    expect(existsSync(workdir)).toBe(false);
  }, 60_000);

  it("prints the folder it was given with --workdir, and leaves it in place", async () => {
    await serve(["--token", "t"]);
    expect(stderr.split("\n")).toContain(`workdir: ${dir}`);
    expect(await stopServer()).toBe(0);
    expect(existsSync(dir)).toBe(true);
  }, 60_000);
});
