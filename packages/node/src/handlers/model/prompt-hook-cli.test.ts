import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deadPort, startFakeChatServer } from "../../../test/model/fake-chat-server.js";
import { type MemoryIo, memoryIo } from "../../../test/support/memory-io.js";
import { runCli } from "../../cli/run-cli.js";

const KEY = "sk-cli-secret-0b5e";
let root: string;
let io: MemoryIo;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "a3s-prompt-cli-"));
  await mkdir(join(root, "home"));
  io = memoryIo({
    cwd: root,
    home: join(root, "home"),
    env: {},
  });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await rm(root, { recursive: true, force: true });
});

/** `a3s-hooks test PreToolUse --tool Bash` with a settings file holding one hook. */
async function cliTest(hook: Record<string, unknown>, command = "rm -rf /") {
  const file = join(root, "settings.json");
  await writeFile(
    file,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook] }] } }),
  );
  const code = await runCli(
    [
      "test",
      "PreToolUse",
      "--settings",
      file,
      "--no-defaults",
      "--tool",
      "Bash",
      "--args",
      JSON.stringify({ command }),
      "--json",
    ],
    io,
  );
  return { code, json: io.out ? JSON.parse(io.out) : undefined };
}

async function fake(...script: Parameters<typeof startFakeChatServer>[0]) {
  const server = await startFakeChatServer(script);
  closers.push(server.close);
  io.env = {
    A3S_HOOKS_MODEL: "judge",
    A3S_HOOKS_MODEL_BASE_URL: server.baseUrl,
    A3S_HOOKS_MODEL_API_KEY: KEY,
  };
  return server;
}

describe("a3s-hooks test with prompt hooks, the model from the environment", () => {
  it("blocks with the model's reason (exit 2), asking the model the environment names", async () => {
    const server = await fake({ content: '{"ok": false, "reason": "wipes the disk"}' });
    const { code, json } = await cliTest({ type: "prompt", prompt: "Safe? $ARGUMENTS" });
    expect(code).toBe(2);
    expect(JSON.stringify(json)).toContain("wipes the disk");
    expect(server.requests[0]?.body.model).toBe("judge");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(io.out + io.err).not.toContain(KEY);
  });

  it("continues on ok: true (exit 0)", async () => {
    await fake({ content: '{"ok": true}' });
    expect((await cliTest({ type: "prompt", prompt: "p" }, "ls")).code).toBe(0);
  });

  it("a fail-closed hook whose model is down blocks, and the key is not printed", async () => {
    const port = await deadPort();
    io.env = {
      A3S_HOOKS_MODEL: "judge",
      A3S_HOOKS_MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      A3S_HOOKS_MODEL_API_KEY: KEY,
    };
    const { code } = await cliTest({ type: "prompt", prompt: "p", failBehavior: "block" });
    expect(code).toBe(2);
    expect(io.out).toContain("UNAVAILABLE");
    expect(io.out + io.err).not.toContain(KEY);
  });

  it("without A3S_HOOKS_MODEL the hook is listed as not run, naming the variable", async () => {
    const { code } = await cliTest({ type: "prompt", prompt: "p", name: "judge" });
    expect(code).toBe(0);
    expect(io.out).toContain("A3S_HOOKS_MODEL");
  });

  it("a base URL it refuses is a configuration error naming the variable, not the key", async () => {
    io.env = {
      A3S_HOOKS_MODEL: "judge",
      A3S_HOOKS_MODEL_BASE_URL: "http://10.0.0.1/v1",
      A3S_HOOKS_MODEL_API_KEY: KEY,
    };
    const { code } = await cliTest({ type: "prompt", prompt: "p" });
    expect(code).toBe(1);
    expect(io.err).toContain("A3S_HOOKS_MODEL_BASE_URL");
    expect(io.err).not.toContain(KEY);
  });
});
