import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandRunReport } from "../handlers/command/command-hook.js";
import { applyHookSettings, engineOptionsFromSettings } from "./apply-hook-settings.js";
import type { HookSettings } from "./hook-settings.js";
import { loadHookSettings } from "./load-hook-settings.js";
import { trustProject } from "./project-trust.js";
import type { AsyncRewake } from "./settings-hook-registration.js";

let root: string;
let cwd: string;
let home: string;
const servers: Server[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-types-"));
  cwd = join(root, "repo");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(async () => {
  rmSync(root, { recursive: true, force: true });
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Settings from one explicit file holding these PreToolUse hooks (matcher Bash). */
async function settingsWith(...hooks: unknown[]): Promise<HookSettings> {
  const file = join(root, "settings.json");
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } }));
  return loadHookSettings({ cwd, home, files: [file], defaults: false, managedSettings: [] });
}

const problems = (s: HookSettings) =>
  s.problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

async function server(answer: unknown): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const s = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, hits: () => hits };
}

describe("settings-file hook types", () => {
  it("runs an identical http hook once, and says it is the same hook (not the same command)", async () => {
    const srv = await server({});
    const settings = await settingsWith(
      { type: "http", url: srv.url },
      { type: "http", url: srv.url },
    );
    const engine = new HookEngine();
    using handle = applyHookSettings(engine, settings);
    expect(handle.applied).toHaveLength(1);
    expect(handle.skipped.map((s) => [s.reason, s.message])).toEqual([
      [
        "duplicate",
        expect.stringMatching(/^same http hook as hooks\.PreToolUse\[0\]\.hooks\[0\] in /),
      ],
    ]);
    await engine.fire(bash("ls"));
    expect(srv.hits()).toBe(1);
  });

  it("reads an http hook with its type and definition, and runs it", async () => {
    const srv = await server({ decision: "block", reason: "policy says no" });
    const settings = await settingsWith({
      type: "http",
      url: srv.url,
      statusMessage: "Asking the policy server…",
      timeout: 5,
    });
    expect(problems(settings)).toEqual([]);
    expect(settings.hooks.map((h) => [h.type, h.name])).toEqual([["http", `POST ${srv.url}`]]);
    const engine = new HookEngine(engineOptionsFromSettings(settings));
    const reports: CommandRunReport[] = [];
    const handle = applyHookSettings(engine, settings, { onRun: (r) => reports.push(r) });
    expect(handle.skipped).toEqual([]);
    expect(engine.list()[0]?.timeout).toBe(5000);
    const result = await engine.fire(bash("rm -rf /"));
    expect(result).toMatchObject({ action: "block", reason: "policy says no" });
    expect(reports.map((r) => [r.command, r.statusMessage])).toEqual([
      [`POST ${srv.url}`, "Asking the policy server…"],
    ]);
  });

  it("an http hook without a timeout gets Claude Code's 600 s", async () => {
    const settings = await settingsWith({ type: "http", url: "http://127.0.0.1:9/" });
    const engine = new HookEngine();
    applyHookSettings(engine, settings);
    expect(engine.list()[0]?.timeout).toBe(600_000);
  });

  it("load-time problems of an http hook name its field; unknown fields are warned", async () => {
    const settings = await settingsWith(
      { type: "http", url: "https://user:secret@127.0.0.1/" },
      { type: "http", url: "ftp://127.0.0.1/" },
      {
        type: "http",
        url: "http://127.0.0.1:9/",
        headers: { Authorization: "Bearer $TOKEN" },
        command: "echo",
      },
    );
    expect(problems(settings)).toEqual([
      expect.stringMatching(
        /^error hooks\.PreToolUse\[0\]\.hooks\[0\]\.url: credentials in the URL are refused/,
      ),
      "error hooks.PreToolUse[0].hooks[1].url: expected an http: or https: URL, got ftp:",
      'warning hooks.PreToolUse[0].hooks[2].command: unknown field "command" for a http hook (ignored)',
      "warning hooks.PreToolUse[0].hooks[2].headers.Authorization: uses $TOKEN, which allowedEnvVars does not list: it is sent as an empty string",
    ]);
    expect(settings.hooks).toHaveLength(1);
  });

  it("allowedHttpHookUrls keeps an http hook it does not list from running, saying why", async () => {
    const settings = await settingsWith({ type: "http", url: "http://127.0.0.1:9/hook" });
    settings.httpHookPolicy = { allowedUrls: ["https://hooks.example.com/*"] };
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.applied).toEqual([]);
    expect(handle.skipped.map((s) => [s.reason, s.message])).toEqual([
      ["policy", 'url: not allowed by allowedHttpHookUrls ("https://hooks.example.com/*")'],
    ]);
  });

  it("a prompt hook with no model is unavailable, named, never silently skipped", async () => {
    const settings = await settingsWith({ type: "prompt", prompt: "Is $ARGUMENTS safe?" });
    expect(problems(settings)).toEqual([]);
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.skipped.map((s) => s.reason)).toEqual(["unavailable"]);
    expect(handle.skipped[0]?.message).toMatch(/^cannot run here: .*no model is configured/);
  });

  it("a fail-closed hook that cannot run here blocks every firing it matches", async () => {
    const settings = await settingsWith({
      type: "mcp_tool",
      server: "policy",
      tool: "check",
      onFailure: "block",
    });
    const engine = new HookEngine();
    const handle = applyHookSettings(engine, settings);
    expect(handle.skipped.map((s) => s.reason)).toEqual(["unavailable"]);
    expect(handle.skipped[0]?.message).toContain("fails closed");
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.reason).toContain("cannot run here");
  });

  it("onFailure: block makes a failing command block (Claude Code's name for failBehavior)", async () => {
    const settings = await settingsWith({ command: "exit 1", onFailure: "block" });
    const engine = new HookEngine();
    applyHookSettings(engine, settings);
    expect((await engine.fire(bash("ls"))).action).toBe("block");
  });

  it("onFailure and failBehavior that disagree are an error", async () => {
    const settings = await settingsWith({
      command: "true",
      onFailure: "continue",
      failBehavior: "block",
    });
    expect(problems(settings)).toEqual([
      'error hooks.PreToolUse[0].hooks[0].onFailure: onFailure is "continue" but failBehavior is "block"; set one of them (this hook does not load)',
    ]);
  });

  it("once: the hook runs on the first matching firing only", async () => {
    const settings = await settingsWith({ command: "echo no >&2; exit 2", once: true });
    const engine = new HookEngine();
    applyHookSettings(engine, settings);
    expect((await engine.fire(bash("ls"))).action).toBe("block");
    expect((await engine.fire(bash("ls"))).action).toBe("continue");
    expect(engine.list()).toEqual([]);
  });

  it("asyncRewake: the firing does not wait; an exit 2 is delivered to the host afterwards", async () => {
    const settings = await settingsWith({
      command: "echo 'tests fail: fix them' >&2; exit 2",
      asyncRewake: true,
    });
    const engine = new HookEngine();
    let delivered!: (r: AsyncRewake) => void;
    const rewake = new Promise<AsyncRewake>((r) => {
      delivered = r;
    });
    const handle = applyHookSettings(engine, settings, { onAsyncRewake: (r) => delivered(r) });
    expect(handle.skipped).toEqual([]);
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    const got = await rewake;
    expect(got.reason).toBe("tests fail: fix them");
    expect(got.hook.path).toBe("hooks.PreToolUse[0].hooks[0]");
  });

  it("asyncRewake in a host that cannot wake the model is unavailable", async () => {
    const settings = await settingsWith({ command: "exit 2", asyncRewake: true });
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.skipped.map((s) => s.reason)).toEqual(["unavailable"]);
  });

  it('shell: "bash" runs the command with bash; "powershell" is refused at load', async () => {
    const settings = await settingsWith(
      { command: 'test -n "$BASH_VERSION" || { echo not bash >&2; exit 2; }', shell: "bash" },
      { command: "Write-Output hi", shell: "powershell" },
    );
    expect(problems(settings)).toEqual([
      'error hooks.PreToolUse[0].hooks[1].shell: "powershell" cannot run here: {{variables}} are quoted for POSIX shells only; use "bash" (this hook does not load)',
    ]);
    const engine = new HookEngine();
    applyHookSettings(engine, settings);
    expect((await engine.fire(bash("ls"))).action).toBe("continue");
  });

  it("one typed hook object under an event key is read as one hook, not as named commands", async () => {
    const file = join(root, "one.json");
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: { type: "http", url: "http://127.0.0.1:9/" } } }),
    );
    const settings = await loadHookSettings({
      cwd,
      home,
      files: [file],
      defaults: false,
      managedSettings: [],
    });
    expect(settings.hooks.map((h) => [h.type, h.name])).toEqual([
      ["http", "POST http://127.0.0.1:9/"],
    ]);
    expect(problems(settings)).toEqual([
      "warning hooks.PreToolUse: expected named hooks or an array; read as one hook",
    ]);
  });

  it("an unknown type is an error naming the types there are", async () => {
    const settings = await settingsWith({ type: "webhook", url: "http://127.0.0.1/" });
    expect(problems(settings)).toEqual([
      'error hooks.PreToolUse[0].hooks[0].type: expected one of "command", "http", "prompt", "agent", "mcp_tool", got "webhook" (this hook does not load)',
    ]);
  });
});

describe("the http policy at load", () => {
  it("warns about a URL it does not allow and a header variable it does not allow, naming the field", async () => {
    const file = join(root, "settings.json");
    writeFileSync(
      file,
      JSON.stringify({
        allowedHttpHookUrls: ["http://127.0.0.1:*/allowed"],
        httpHookAllowedEnvVars: ["TEAM"],
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: "http", url: "http://127.0.0.1:9/other" },
                {
                  type: "http",
                  url: "http://127.0.0.1:9/allowed",
                  headers: { Authorization: "Bearer $TOKEN", "X-Team": "$TEAM" },
                  allowedEnvVars: ["TOKEN", "TEAM"],
                },
              ],
            },
          ],
        },
      }),
    );
    const settings = await loadHookSettings({
      cwd,
      home,
      files: [file],
      defaults: false,
      managedSettings: [],
    });
    expect(problems(settings)).toEqual([
      'warning hooks.PreToolUse[0].hooks[0].url: not allowed by allowedHttpHookUrls ("http://127.0.0.1:*/allowed"); this hook does not run',
      "warning hooks.PreToolUse[0].hooks[1].headers.Authorization: uses $TOKEN, which httpHookAllowedEnvVars does not list: it is sent as an empty string",
    ]);
    const handle = applyHookSettings(new HookEngine(), settings);
    expect(handle.skipped.map((s) => [s.hook.path, s.reason])).toEqual([
      ["hooks.PreToolUse[0].hooks[0]", "policy"],
    ]);
  });
});

describe("the http policy lists and where they are honoured", () => {
  /** A server that answers block and keeps each request's X-Token header. */
  async function blockingServer(): Promise<{ url: string; tokens: (string | undefined)[] }> {
    const tokens: (string | undefined)[] = [];
    const s = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        tokens.push(req.headers["x-token"] as string | undefined);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ decision: "block", reason: "policy says no" }));
      });
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, tokens };
  }

  function writeJson(path: string, value: unknown): string {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
    return path;
  }

  async function managedHook(url: string): Promise<string> {
    return writeJson(join(root, "etc", "managed-settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "http",
                url,
                onFailure: "block",
                headers: { "X-Token": "$TOKEN" },
                allowedEnvVars: ["TOKEN"],
              },
            ],
          },
        ],
      },
    });
  }

  it("a never-trusted project's empty lists cannot switch off a managed fail-closed hook or empty its header", async () => {
    const srv = await blockingServer();
    const managed = await managedHook(srv.url);
    const project = writeJson(join(cwd, ".claude", "settings.json"), {
      allowedHttpHookUrls: [],
      httpHookAllowedEnvVars: [],
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [managed] });
    expect(settings.httpHookPolicy).toBeUndefined();
    expect(
      settings.problems.filter((p) => p.file === project).map((p) => [p.path, p.severity]),
    ).toEqual([
      ["allowedHttpHookUrls", "warning"],
      ["httpHookAllowedEnvVars", "warning"],
    ]);
    const engine = new HookEngine();
    using handle = applyHookSettings(engine, settings, { env: { TOKEN: "t0k" } });
    expect(handle.skipped).toEqual([]);
    expect((await engine.fire(bash("ls"))).action).toBe("block");
    expect(srv.tokens).toEqual(["t0k"]);
  });

  it("a trusted project cannot widen the lists the user set", async () => {
    writeJson(join(home, ".claude", "settings.json"), {
      allowedHttpHookUrls: ["https://user.example/*"],
      httpHookAllowedEnvVars: ["USER_TOKEN"],
    });
    writeJson(join(cwd, ".claude", "settings.json"), {
      allowedHttpHookUrls: ["*"],
      httpHookAllowedEnvVars: ["AWS_SECRET_ACCESS_KEY"],
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] },
    });
    await trustProject({ cwd, home });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [] });
    expect(settings.project?.trusted).toBe(true);
    expect(settings.httpHookPolicy).toEqual({
      allowedUrls: ["https://user.example/*"],
      allowedEnvVars: ["USER_TOKEN"],
    });
  });

  it("a user's lists never restrict a managed hook", async () => {
    const srv = await blockingServer();
    const managed = await managedHook(srv.url);
    writeJson(join(home, ".claude", "settings.json"), {
      allowedHttpHookUrls: ["https://user.example/*"],
      httpHookAllowedEnvVars: [],
    });
    const settings = await loadHookSettings({ cwd, home, managedSettings: [managed] });
    expect(problems(settings)).toEqual([]);
    const engine = new HookEngine();
    using handle = applyHookSettings(engine, settings, { env: { TOKEN: "t0k" } });
    expect(handle.skipped).toEqual([]);
    expect((await engine.fire(bash("ls"))).action).toBe("block");
    expect(srv.tokens).toEqual(["t0k"]);
  });

  it("a fail-closed hook the policy refuses still blocks every firing it matches", async () => {
    const file = writeJson(join(root, "settings.json"), {
      allowedHttpHookUrls: ["https://hooks.example.com/*"],
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "http", url: "http://127.0.0.1:9/hook", onFailure: "block" }],
          },
        ],
      },
    });
    const settings = await loadHookSettings({
      cwd,
      home,
      files: [file],
      defaults: false,
      managedSettings: [],
    });
    const engine = new HookEngine();
    using handle = applyHookSettings(engine, settings);
    expect(handle.skipped.map((s) => [s.reason, s.message])).toEqual([
      ["policy", expect.stringContaining("it fails closed, so every firing it matches blocks")],
    ]);
    expect((await engine.fire(bash("ls"))).action).toBe("block");
    expect(
      (await engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Read", args: {} })))
        .action,
    ).toBe("continue");
  });
});
