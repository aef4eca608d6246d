// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} and ${path} placeholders are what these tests are about
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive } from "../../../../test-support/process-alive.js";
import { createMcpServerPool } from "../handlers/mcp-tool/mcp-server-pool.js";
import { applyHookSettings } from "./apply-hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";
import { mcpToolHookProblems, readMcpServers } from "./mcp-servers.js";
import { trustProject } from "./project-trust.js";

const DECISION_SERVER = resolve(import.meta.dirname, "../../test/fixtures/mcp/decision-server.mjs");
const source = { file: "/s.json", scope: "user" as const, trusted: true };

describe("readMcpServers", () => {
  it("reads Claude Code's stdio and http shapes, expanding ${VAR} and ${VAR:-default}", () => {
    const { servers, problems } = readMcpServers(
      {
        fs: { command: "npx", args: ["-y", "server", "${ROOT}"], env: { KEY: "${KEY:-none}" } },
        typed: { type: "stdio", command: "srv" },
        remote: {
          type: "http",
          url: "https://mcp.example.com/${PATHPART}",
          headers: { Authorization: "Bearer ${TOKEN}" },
        },
      },
      { ...source, env: { ROOT: "/data", PATHPART: "mcp", TOKEN: "abc" } },
    );
    expect(problems).toEqual([]);
    expect(servers.map((s) => [s.name, s.config])).toEqual([
      [
        "fs",
        { type: "stdio", command: "npx", args: ["-y", "server", "/data"], env: { KEY: "none" } },
      ],
      ["typed", { type: "stdio", command: "srv", args: [], env: {} }],
      [
        "remote",
        {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer abc" },
        },
      ],
    ]);
  });

  it("never expands A3S_TOKEN into a server's configuration", () => {
    const { servers, problems } = readMcpServers(
      { leak: { type: "http", url: "https://x.example/?t=${A3S_TOKEN}" } },
      { ...source, env: { A3S_TOKEN: "secret" } },
    );
    expect(servers).toEqual([]);
    expect(problems[0]).toMatchObject({ path: "mcpServers.leak", severity: "error" });
    expect(problems[0]?.message).toContain("A3S_TOKEN not set");
  });

  it.each(["A3S_HOOKS_MODEL_API_KEY", "OPENAI_API_KEY"])(
    "never expands the hooks' model key %s into a server's configuration",
    (name) => {
      const { servers, problems } = readMcpServers(
        {
          url: { type: "http", url: `https://x.example/?k=\${${name}}` },
          header: {
            type: "http",
            url: "https://x.example/",
            headers: { Authorization: `Bearer \${${name}}` },
          },
          stdio: { command: "srv", args: [`--key=\${${name}}`], env: { KEY: `\${${name}}` } },
        },
        { ...source, env: { [name]: "sk-secret" } },
      );
      expect(servers).toEqual([]);
      expect(problems.map((p) => p.path)).toEqual([
        "mcpServers.url",
        "mcpServers.header",
        "mcpServers.stdio",
      ]);
      for (const problem of problems) expect(problem.message).toContain(`${name} not set`);
    },
  );

  it("reports each bad entry by its path and keeps the good ones", () => {
    const { servers, problems } = readMcpServers(
      {
        good: { command: "srv" },
        noCommand: { args: [] },
        creds: { type: "http", url: "https://user:pw@x.example/" },
        ftp: { type: "http", url: "ftp://x.example/" },
        old: { type: "sse", url: "https://x.example/sse" },
        "bad name!": { command: "srv" },
        nul: { command: "srv\0x" },
      },
      { ...source, env: {} },
    );
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    expect(problems.map((p) => [p.path, p.severity])).toEqual([
      ["mcpServers.noCommand.command", "error"],
      ["mcpServers.creds.url", "error"],
      ["mcpServers.ftp.url", "error"],
      ["mcpServers.old.type", "warning"],
      ["mcpServers", "error"],
      ["mcpServers.nul.command", "error"],
    ]);
  });

  it("refuses a value that is not an object of servers", () => {
    expect(readMcpServers(["x"], source).problems[0]).toMatchObject({
      path: "mcpServers",
      message: expect.stringContaining("expected an object of servers by name"),
    });
  });
});

describe("MCP servers in settings files and .mcp.json", () => {
  let root: string;
  let cwd: string;
  let home: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "a3s-mcp-servers-"));
    cwd = join(root, "repo");
    home = join(root, "home");
    mkdirSync(cwd);
    mkdirSync(home);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, content: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(content));
  };
  const node = (...args: string[]) => ({
    command: process.execPath,
    args: [DECISION_SERVER, ...args],
  });

  it("keeps an untrusted project's .mcp.json servers from starting until trust, and again after a change", async () => {
    write(join(cwd, ".mcp.json"), { mcpServers: { policy: node() } });
    let settings = await loadHookSettings({ cwd, home });
    expect(settings.mcpServers).toMatchObject([
      { name: "policy", scope: "project", trusted: false },
    ]);
    expect(settings.problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining("its 1 MCP server(s) are not started"),
    );
    expect(createMcpServerPool(settings.mcpServers ?? []).has("policy")).toBe(false);

    await trustProject({ cwd, home });
    settings = await loadHookSettings({ cwd, home });
    expect(settings.mcpServers).toMatchObject([{ name: "policy", trusted: true }]);

    // The repository swaps the command after trust: the server is untrusted again.
    write(join(cwd, ".mcp.json"), { mcpServers: { policy: { command: "curl" } } });
    settings = await loadHookSettings({ cwd, home });
    expect(settings.project?.changed).toBe(true);
    expect(settings.mcpServers).toMatchObject([{ name: "policy", trusted: false }]);
  });

  it("does not let an untrusted project's server hide the user's server of that name", async () => {
    write(join(cwd, ".mcp.json"), { mcpServers: { policy: { command: "evil" } } });
    write(join(home, ".claude/settings.json"), { mcpServers: { policy: node() } });
    const settings = await loadHookSettings({ cwd, home });
    expect(settings.mcpServers).toMatchObject([
      { name: "policy", scope: "user", trusted: true, config: { command: process.execPath } },
    ]);
  });

  it("names the hook whose server nobody configured", async () => {
    write(join(home, ".claude/settings.json"), {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "mcp_tool", server: "nowhere", tool: "scan" }] }],
      },
    });
    const settings = await loadHookSettings({ cwd, home });
    expect(settings.problems).toContainEqual(
      expect.objectContaining({
        path: "hooks.PreToolUse[0].hooks[0].server",
        message: expect.stringContaining('no MCP server named "nowhere" is configured'),
      }),
    );
  });

  it("says which package to install when an mcp_tool hook exists and the SDK does not", async () => {
    const missing = async () => {
      throw Object.assign(new Error("not found"), { code: "ERR_MODULE_NOT_FOUND" });
    };
    const hook = {
      id: "h",
      event: "PreToolUse",
      definition: { type: "mcp_tool", server: "policy", tool: "t" },
      name: "guard",
      source: "/s.json",
      path: "hooks.PreToolUse[0].hooks[0]",
      scope: "user",
      trusted: true,
    };
    const problems = await mcpToolHookProblems(
      // biome-ignore lint/suspicious/noExplicitAny: a minimal hook, whatever the dispatcher's definition type is
      { hooks: [hook as any], mcpServers: [] },
      missing,
    );
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining("npm install @modelcontextprotocol/sdk"),
    );
  });

  it("blocks a tool call through applyHookSettings on a real engine", async () => {
    write(join(home, ".claude/settings.json"), {
      mcpServers: { policy: node() },
      hooks: {
        PreToolUse: [
          {
            matcher: "Write",
            hooks: [
              {
                type: "mcp_tool",
                server: "policy",
                tool: "block",
                input: { reason: "no writes to ${tool_input.file_path}" },
              },
            ],
          },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home });
    expect(settings.problems).toEqual([]);
    await using servers = createMcpServerPool(settings.mcpServers ?? [], { cwd });
    const engine = new HookEngine();
    using handle = applyHookSettings(engine, settings, { projectDir: cwd, mcpServers: servers });
    expect(handle.skipped).toEqual([]);
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Write", args: { file_path: "a.txt" } }),
    );
    expect(result).toMatchObject({ action: "block", reason: "no writes to a.txt" });
  });

  it("starts the configured servers itself when the host passes none, and stops them with the handle", async () => {
    write(join(home, ".claude/settings.json"), {
      mcpServers: { policy: node() },
      hooks: {
        PreToolUse: [
          { matcher: "Write", hooks: [{ type: "mcp_tool", server: "policy", tool: "pid" }] },
        ],
      },
    });
    const settings = await loadHookSettings({ cwd, home });
    const engine = new HookEngine();
    const handle = applyHookSettings(engine, settings, { projectDir: cwd });
    expect(handle.skipped).toEqual([]);
    const result = await engine.fire(
      createEvent("PreToolUse", { sessionId: "s", tool: "Write", args: { file_path: "a.txt" } }),
    );
    const pid = Number(result.systemMessages[0]);
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    handle.unregister();
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
  });
});
