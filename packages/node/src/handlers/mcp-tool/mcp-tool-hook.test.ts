// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${path} placeholders are what these tests are about
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { LoadedMcpServer, McpServerConfig } from "../../settings/mcp-servers.js";
import { toHookInput } from "../hook-input.js";
import { createMcpServerPool, loadMcpSdk, MCP_SDK_MISSING } from "./mcp-server-pool.js";
import {
  createMcpToolHandler,
  type McpServerPool,
  type McpToolHookDefinition,
  mcpToolHookShape,
} from "./mcp-tool-hook.js";

const DECISION_SERVER = resolve(
  import.meta.dirname,
  "../../../test/fixtures/mcp/decision-server.mjs",
);
const FILESYSTEM_SERVER = resolve(
  import.meta.dirname,
  "../../../node_modules/.bin/mcp-server-filesystem",
);

const server = (name: string, config: McpServerConfig, trusted = true): LoadedMcpServer => ({
  name,
  config,
  source: "/settings.json",
  path: `mcpServers.${name}`,
  scope: "user",
  trusted,
});
const stdio = (command: string, args: string[], env: Record<string, string> = {}) =>
  ({ type: "stdio", command, args, env }) as const;

const preToolUse = (args: Record<string, unknown>) => {
  const event = createEvent("PreToolUse", { sessionId: "s1", tool: "Write", args });
  return { event, input: toHookInput(event, { cwd: "/repo" }) };
};
const run = (
  pool: McpServerPool,
  definition: Omit<McpToolHookDefinition, "type">,
  args: Record<string, unknown> = { file_path: "/repo/a.txt" },
  signal = new AbortController().signal,
) =>
  createMcpToolHandler(
    { type: "mcp_tool", ...definition },
    { servers: pool },
  )({
    ...preToolUse(args),
    signal,
  });

const pools: McpServerPool[] = [];
const decisionPool = (extra: Parameters<typeof createMcpServerPool>[1] = {}) => {
  const pool = createMcpServerPool(
    [server("policy", stdio(process.execPath, [DECISION_SERVER]))],
    extra,
  );
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe("mcpToolHookShape", () => {
  const schema = z.object(mcpToolHookShape);
  it("accepts the reference's example and refuses a malformed placeholder, naming it", () => {
    expect(
      schema.safeParse({
        type: "mcp_tool",
        server: "semgrep",
        tool: "scan_file",
        input: { path: "${tool_input.file_path}" },
      }).success,
    ).toBe(true);
    const bad = schema.safeParse({
      type: "mcp_tool",
      server: "s",
      tool: "t",
      input: { q: ["${ tool_input }"] },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('input.q[0]: "${ tool_input }"');
  });
  it("refuses an empty server or tool name", () => {
    expect(schema.safeParse({ type: "mcp_tool", server: "", tool: "t" }).success).toBe(false);
    expect(schema.safeParse({ type: "mcp_tool", server: "s", tool: "" }).success).toBe(false);
  });
});

describe("an mcp_tool hook against a real MCP server over stdio", () => {
  it("blocks with the tool's reason, with input filled from the hook input", async () => {
    const answer = await run(decisionPool(), {
      server: "policy",
      tool: "block",
      input: { reason: "no writes to ${tool_input.file_path}" },
    });
    expect(answer).toMatchObject({ action: "block", reason: "no writes to /repo/a.txt" });
  });

  it("rewrites the tool input (updatedInput)", async () => {
    const answer = await run(
      decisionPool(),
      { server: "policy", tool: "rewrite", input: { path: "${tool_input.file_path}" } },
      { file_path: "/repo/secret.txt" },
    );
    expect(answer).toMatchObject({
      action: "continue",
      modified: { args: { file_path: "/repo/public.txt" } },
    });
  });

  it("sends missing fields as empty strings, other values as JSON, and never expands twice", async () => {
    const answer = await run(
      decisionPool(),
      {
        server: "policy",
        tool: "args",
        input: {
          missing: "[${tool_input.nope}]",
          count: "${tool_input.count}",
          nested: { path: "${tool_input.file_path}" },
          kept: 7,
        },
      },
      { file_path: "${session_id}", count: 3 },
    );
    expect(JSON.parse((answer as { systemMessage: string }).systemMessage)).toEqual({
      missing: "[]",
      count: "3",
      nested: { path: "${session_id}" },
      kept: 7,
    });
  });

  it("treats isError: true as a failure of the hook (its fail behaviour applies)", async () => {
    await expect(run(decisionPool(), { server: "policy", tool: "fail" })).rejects.toMatchObject({
      code: "HANDLER_FAILED",
      message: expect.stringContaining("policy store unreachable"),
    });
  });

  it("blocks on an answer past the output cap that it cannot read whole", async () => {
    const pool = decisionPool();
    const answer = await createMcpToolHandler(
      { type: "mcp_tool", server: "policy", tool: "huge", input: { bytes: 5000 } },
      { servers: pool, maxOutputBytes: 1000 },
    )({ ...preToolUse({}), signal: new AbortController().signal });
    expect(answer).toMatchObject({ action: "block" });
  });

  it("reuses the server across firings", async () => {
    const pool = decisionPool();
    const pid = async () =>
      ((await run(pool, { server: "policy", tool: "pid" })) as { systemMessage: string })
        .systemMessage;
    const first = await pid();
    expect(await pid()).toBe(first);
  });

  it("cancels the call when the hook's signal aborts, with the signal's reason", async () => {
    const pool = decisionPool();
    await run(pool, { server: "policy", tool: "pid" });
    const controller = new AbortController();
    const pending = run(pool, { server: "policy", tool: "slow" }, {}, controller.signal);
    const reason = new HookError("TIMEOUT", "no answer within 1 s");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // The server is still there for the next firing.
    await expect(run(pool, { server: "policy", tool: "plain" })).resolves.toEqual({
      action: "continue",
    });
  });

  it("does not hand the server A3S_TOKEN or the hooks' model key, and passes its own env", async () => {
    const pool = createMcpServerPool(
      [server("policy", stdio(process.execPath, [DECISION_SERVER], { OWN: "mine" }))],
      { env: { ...process.env, A3S_TOKEN: "t0ken", A3S_HOOKS_MODEL_API_KEY: "sk-hooks" } },
    );
    pools.push(pool);
    const env = async (name: string) =>
      (
        (await run(pool, { server: "policy", tool: "env", input: { name } })) as {
          systemMessage: string;
        }
      ).systemMessage;
    expect(await env("A3S_TOKEN")).toBe("(unset)");
    expect(await env("A3S_HOOKS_MODEL_API_KEY")).toBe("(unset)");
    expect(await env("OWN")).toBe("mine");
  });

  it("does not hand the server OPENAI_API_KEY when it is the hooks' model key", async () => {
    const envOf = async (extra: Record<string, string>, name: string) => {
      const pool = createMcpServerPool(
        [server("policy", stdio(process.execPath, [DECISION_SERVER]))],
        {
          env: {
            ...process.env,
            OPENAI_API_KEY: "sk-openai",
            OPENAI_ADMIN_KEY: "sk-admin",
            ...extra,
          },
        },
      );
      pools.push(pool);
      return (
        (await run(pool, { server: "policy", tool: "env", input: { name } })) as {
          systemMessage: string;
        }
      ).systemMessage;
    };
    // No key of the hooks' own: OPENAI_API_KEY is theirs, and stays in the host.
    expect(await envOf({ A3S_HOOKS_MODEL_API_KEY: "" }, "OPENAI_API_KEY")).toBe("(unset)");
    expect(await envOf({}, "OPENAI_ADMIN_KEY")).toBe("(unset)");
    // The hooks pay with their own key: OPENAI_API_KEY is the user's, for the user's servers.
    expect(await envOf({ A3S_HOOKS_MODEL_API_KEY: "sk-hooks" }, "OPENAI_API_KEY")).toBe(
      "sk-openai",
    );
  });

  it("fails the in-flight call with UNAVAILABLE and the server's stderr when it crashes, then restarts it", async () => {
    const pool = decisionPool();
    await expect(run(pool, { server: "policy", tool: "crash" })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("out of memory in crash()"),
    });
    await expect(run(pool, { server: "policy", tool: "plain" })).resolves.toEqual({
      action: "continue",
    });
  });

  it("stops restarting a server that keeps crashing", async () => {
    const pool = decisionPool({ maxRestarts: 1 });
    for (let i = 0; i < 2; i++) {
      await expect(run(pool, { server: "policy", tool: "crash" })).rejects.toMatchObject({
        code: "UNAVAILABLE",
      });
    }
    await expect(run(pool, { server: "policy", tool: "plain" })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("not started again until the settings are reloaded"),
    });
  });

  it("says why a server did not start, with its stderr", async () => {
    const pool = createMcpServerPool([
      server("policy", stdio(process.execPath, [DECISION_SERVER, "--fail-to-start"])),
    ]);
    pools.push(pool);
    await expect(run(pool, { server: "policy", tool: "plain" })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("cannot open the policy database"),
    });
  });

  it("starts nothing before the first call, and stops the server when closed", async () => {
    const pool = createMcpServerPool([
      server("policy", stdio(process.execPath, [DECISION_SERVER])),
      server("never", stdio("/nonexistent/server", [])),
    ]);
    const pid = Number(
      ((await run(pool, { server: "policy", tool: "pid" })) as { systemMessage: string })
        .systemMessage,
    );
    expect(() => process.kill(pid, 0)).not.toThrow();
    await pool.close();
    await expect
      .poll(() => {
        try {
          process.kill(pid, 0);
          return "alive";
        } catch {
          return "gone";
        }
      })
      .toBe("gone");
    await expect(run(pool, { server: "policy", tool: "pid" })).rejects.toMatchObject({
      code: "UNAVAILABLE",
    });
  });

  it("never starts an untrusted server, and the factory names the hook", () => {
    const pool = createMcpServerPool([
      server("policy", stdio(process.execPath, [DECISION_SERVER]), false),
    ]);
    expect(pool.has("policy")).toBe(false);
    expect(() =>
      createMcpToolHandler(
        { type: "mcp_tool", server: "policy", tool: "plain" },
        { servers: pool, name: "guard" },
      ),
    ).toThrow(/mcp_tool hook "guard": no MCP server named "policy"/);
  });
});

describe("an mcp_tool hook against @modelcontextprotocol/server-filesystem", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "a3s-mcp-tool-"));
    writeFileSync(
      join(dir, "policy.json"),
      JSON.stringify({ decision: "block", reason: "policy file says no" }),
    );
    writeFileSync(join(dir, "notes.txt"), "plain notes\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the tool's text as a command hook's stdout: JSON decides, plain text does not", async () => {
    const pool = createMcpServerPool([server("fs", stdio(FILESYSTEM_SERVER, [dir]))]);
    pools.push(pool);
    const read = (file: string) =>
      run(
        pool,
        { server: "fs", tool: "read_text_file", input: { path: "${tool_input.file_path}" } },
        { file_path: join(dir, file) },
      );
    await expect(read("policy.json")).resolves.toMatchObject({
      action: "block",
      reason: "policy file says no",
    });
    await expect(read("notes.txt")).resolves.toEqual({ action: "continue" });
    // Outside the allowed directory the server answers isError: a failure, not a continue.
    await expect(
      run(pool, { server: "fs", tool: "read_text_file", input: { path: "/etc/hostname" } }),
    ).rejects.toMatchObject({ code: "HANDLER_FAILED" });
  });
});

describe("without the MCP SDK", () => {
  it("says which package to install", async () => {
    const missing = async () => {
      throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), {
        code: "ERR_MODULE_NOT_FOUND",
      });
    };
    await expect(loadMcpSdk(missing)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: MCP_SDK_MISSING,
    });
    const pool = createMcpServerPool(
      [server("policy", stdio(process.execPath, [DECISION_SERVER]))],
      {
        importModule: missing,
      },
    );
    await expect(run(pool, { server: "policy", tool: "plain" })).rejects.toMatchObject({
      message: expect.stringContaining("npm install @modelcontextprotocol/sdk"),
    });
  });
});
