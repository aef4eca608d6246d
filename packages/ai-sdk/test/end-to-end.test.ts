/**
 * The three kinds of hooks governing one real AI SDK agent loop: a settings-file command
 * hook, an in-process TypeScript hook, and a remote A3sClient in another process, each
 * acting on a different tool call of the same generateText or streamText run.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookEngine, modify } from "@a3s-lab/hooks-core";
import {
  applyHookSettings,
  createHookServer,
  type HookServer,
  loadHookSettings,
  type SettingsHandle,
} from "@a3s-lab/hooks-node";
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
// The client package's own fixture: a real A3sClient in a forked process.
import { TestClient } from "../../client/test/fixtures/processes.js";
import { hooksMiddleware, isBlockedOutput, withHooks } from "../src/index.js";
import { scriptedModel } from "./fixtures/scripted-model.js";

const TOKEN = "end-to-end-token";

let dir: string;
let engine: HookEngine;
let server: HookServer;
let client: TestClient;
let settings: SettingsHandle;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a3s-ai-sdk-e2e-"));
  const script = join(dir, "no-weather.sh");
  // Claude Code's contract: exit 2 blocks, stderr is the reason the model reads.
  await writeFile(
    script,
    '#!/bin/sh\ncat >/dev/null\necho "the weather station is private" >&2\nexit 2\n',
  );
  await chmod(script, 0o755);
  const file = join(dir, "settings.json");
  await writeFile(
    file,
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "weather", hooks: [{ type: "command", command: script }] }],
      },
    }),
  );
  engine = new HookEngine();
  const loaded = await loadHookSettings({ cwd: dir, home: dir, files: [file], defaults: false });
  settings = applyHookSettings(engine, loaded, { projectDir: dir });
  expect(settings.skipped.map((s) => s.message)).toEqual([]);

  engine.register({
    event: "PreToolUse",
    matcher: "search",
    name: "safe-search",
    handler: (e) => modify({ args: { query: `${String(e.args.query)} -site:example.com` } }),
  });

  server = await createHookServer({ engine, token: TOKEN, port: 0 });
  const registered = new Promise<void>((resolve) => {
    const stop = engine.onAudit((record) => {
      if (
        record.type === "registered" &&
        record.event === "PreToolUse" &&
        engine.size("PreToolUse") === 3
      ) {
        stop();
        resolve();
      }
    });
  });
  client = TestClient.start({
    address: server.address,
    token: TOKEN,
    hooks: [
      {
        event: "PreToolUse",
        matcher: "shell",
        behavior: { kind: "block", reason: "remote reviewer says no" },
      },
    ],
  });
  await Promise.race([
    registered,
    client.exited.then((code) => {
      throw new Error(`the client process exited (${code}) before its hook was registered`);
    }),
  ]);
});

afterAll(async () => {
  await client?.stop();
  await server?.close();
  settings?.unregister();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function agent() {
  const ran: string[] = [];
  const tools = {
    weather: tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        ran.push(`weather ${city}`);
        return `sunny in ${city}`;
      },
    }),
    search: tool({
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => {
        ran.push(`search ${query}`);
        return `3 results for ${query}`;
      },
    }),
    shell: tool({
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }) => {
        ran.push(`shell ${command}`);
        return "done";
      },
    }),
  };
  const model = scriptedModel([
    { tool: "weather", input: { city: "Oslo" } },
    { tool: "search", input: { query: "hooks" } },
    { tool: "shell", input: { command: "rm -rf build" } },
    { text: "all three answered" },
  ]);
  return {
    ran,
    model: wrapLanguageModel({ model, middleware: hooksMiddleware(engine, { sessionId: "e2e" }) }),
    tools: withHooks(tools, engine, { sessionId: "e2e" }),
  };
}

type Steps = readonly { toolResults: readonly { toolName: string; output: unknown }[] }[];

function expectGoverned(ran: string[], steps: Steps, text: string) {
  expect(ran).toEqual(["search hooks -site:example.com"]);
  expect(text).toBe("all three answered");
  const outputs = steps.flatMap((s) => s.toolResults.map((r) => [r.toolName, r.output]));
  expect(outputs).toEqual([
    ["weather", { blocked: true, reason: "the weather station is private", by: "hook" }],
    ["search", "3 results for hooks -site:example.com"],
    ["shell", { blocked: true, reason: "remote reviewer says no", by: "hook" }],
  ]);
  expect(outputs.filter(([, output]) => isBlockedOutput(output))).toHaveLength(2);
}

describe("hooks of every kind in one AI SDK loop", () => {
  it("generateText: a settings-file script blocks, a TS hook rewrites, a remote client blocks", async () => {
    const { ran, model, tools } = agent();
    const result = await generateText({ model, tools, stopWhen: stepCountIs(6), prompt: "go" });
    expectGoverned(ran, result.steps, result.text);
  });

  it("streamText: the same three decisions in a streamed run", async () => {
    const { ran, model, tools } = agent();
    const result = streamText({ model, tools, stopWhen: stepCountIs(6), prompt: "go" });
    const text = await result.text;
    expectGoverned(ran, await result.steps, text);
  });
});
