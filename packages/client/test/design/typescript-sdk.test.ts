/**
 * The A3S Box hooks design's TypeScript SDK section, compiled as written (typescript-sdk.ts) and run against
 * a real hook server in another process. The client takes its address and token from the
 * environment, as `new A3sClient()` does in the design.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bash, Harness, type Host } from "../fixtures/processes.js";

const run = new Harness();
let host: Host;
let sdk: typeof import("./typescript-sdk.js");
const posted: { url: string; body: unknown }[] = [];

beforeAll(async () => {
  host = await run.host();
  vi.stubEnv("A3S_ADDRESS", host.address);
  vi.stubEnv("A3S_TOKEN", run.token);
  // The GenerateEnd hook posts to a metrics service; catch what it sends.
  vi.stubGlobal("fetch", async (url: string, init: { body: string }) => {
    posted.push({ url, body: JSON.parse(init.body) });
    return new Response(null, { status: 204 });
  });
  sdk = await import("./typescript-sdk.js");
  await sdk.client.ready();
});

afterAll(async () => {
  await sdk?.client.close();
  await run.stop();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe("the A3S Box hooks design's TypeScript SDK, as written", () => {
  it("connects with A3S_ADDRESS and A3S_TOKEN, and lists what is registered", async () => {
    expect(sdk.client.address).toBe(host.address);
    const hooks = await sdk.hooks;
    expect(hooks.map((h) => h.event).sort()).toEqual([
      "GenerateEnd",
      "PostToolUse",
      "PreToolUse",
      "PreToolUse",
      "PreToolUse",
    ]);
    // The hook registered and unregistered at once never reached the agent.
    expect(hooks.some((h) => h.id === sdk.hookId.id)).toBe(false);
  });

  it("blocks dangerous Bash commands and API keys in .env files", async () => {
    const bomb = await host.fire("PreToolUse", bash(":(){ :|:& };:"));
    expect(bomb).toMatchObject({
      action: "block",
      reason: "Dangerous command blocked by security policy",
    });
    const env = await host.fire("PreToolUse", {
      sessionId: "s1",
      tool: "Write",
      args: { file_path: "app/.env", content: "API_KEY=sk-1" },
    });
    expect(env).toMatchObject({ action: "block", reason: "Cannot write API keys to .env files" });
    const fine = await host.fire("PreToolUse", {
      sessionId: "s1",
      tool: "Write",
      args: { file_path: "app/.env", content: "DEBUG=1" },
    });
    expect(fine.action).toBe("continue");
  });

  it("adds a timeout to every Bash command", async () => {
    const result = await host.fire("PreToolUse", bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.args).toEqual({ command: "ls", timeout: 30000 });
  });

  it("formats Rust files after a write, through executeTool", async () => {
    const session = "rust-session";
    await host.fire("PostToolUse", {
      sessionId: session,
      tool: "Write",
      args: { file_path: "src/main.rs", content: "fn main(){}" },
      result: { success: true, output: "", duration: 3 },
    });
    expect((await host.list()).commands).toContain("rustfmt src/main.rs");
    await host.fire("PostToolUse", {
      sessionId: session,
      tool: "Write",
      args: { file_path: "src/lib.rs", content: "" },
      result: { success: false, output: "disk full", duration: 3 },
    });
    expect((await host.list()).commands).not.toContain("rustfmt src/lib.rs");
  });

  it("logs token usage after each generation", async () => {
    await host.fire("GenerateEnd", {
      sessionId: "s9",
      prompt: "hi",
      model: { name: "m" },
      response: {
        text: "hello",
        toolCalls: [],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        duration: 5,
      },
    });
    expect(posted).toEqual([
      {
        url: "https://metrics.example.com/log",
        body: { session: "s9", usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
      },
    ]);
  });
});
