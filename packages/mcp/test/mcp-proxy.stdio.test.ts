import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { A3sClient } from "@a3s-lab/box";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FILESYSTEM_SERVER,
  type ProxyProcess,
  proxyCommand,
  scratch,
  startProxy,
  TINY_SERVER,
  writeSettings,
} from "./proxy-process.ts";

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");

// Reads the hook input on stdin and points reads of secret.txt at public.txt instead.
const REDIRECT = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s).tool_input;console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:{...i,path:i.path.replace("secret.txt","public.txt")}}}))})'`;
const REDACT = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const o=JSON.parse(s).tool_response;if(String(o&&o.output!==undefined?o.output:JSON.stringify(o)).includes("TOKEN="))console.log(JSON.stringify({modified:{result:{output:"[redacted by hook]"}}}))})'`;

describe("the proxy in front of @modelcontextprotocol/server-filesystem", () => {
  let box: ReturnType<typeof scratch>;
  let files: string;
  let proxy: ProxyProcess;
  let direct: Client;

  beforeAll(async () => {
    box = scratch();
    files = join(box.dir, "files");
    mkdirSync(files);
    writeFileSync(join(files, "secret.txt"), "the secret\n");
    writeFileSync(join(files, "public.txt"), "public words\n");
    writeFileSync(join(files, "env.txt"), "TOKEN=abc123\n");
    const settings = writeSettings(box.dir, "settings.json", {
      PreToolUse: [
        {
          matcher: "mcp__fs__write_file",
          command: 'echo "writes are off in this project" >&2; exit 2',
        },
        { matcher: "mcp__fs__read_text_file", command: REDIRECT },
        {
          matcher: "mcp__fs__edit_file",
          command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":42}}}'`,
        },
      ],
      PostToolUse: [{ matcher: "mcp__fs__read_text_file", command: REDACT }],
    });
    [proxy, direct] = await Promise.all([
      startProxy(["--settings", settings, "--name", "fs"], [FILESYSTEM_SERVER, files], box.dir),
      (async () => {
        const client = new Client({ name: "direct", version: "1.0.0" });
        await client.connect(
          new StdioClientTransport({ command: FILESYSTEM_SERVER, args: [files], stderr: "ignore" }),
        );
        return client;
      })(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([proxy?.client.close(), direct?.close()]);
    box.cleanup();
  });

  it("lists the server's own tools, unchanged", async () => {
    expect(await proxy.client.listTools()).toEqual(await direct.listTools());
  });

  it("turns a PreToolUse block into a tool error with the reason, and the tool never runs", async () => {
    const target = join(files, "new.txt");
    const result = await proxy.client.callTool({
      name: "write_file",
      arguments: { path: target, content: "x" },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("writes are off in this project");
    expect(text(result)).toContain("mcp__fs__write_file");
    expect(existsSync(target)).toBe(false);
  });

  it("forwards the arguments a hook rewrote", async () => {
    const result = await proxy.client.callTool({
      name: "read_text_file",
      arguments: { path: join(files, "secret.txt") },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("public words\n");
  });

  it("shows the client the output a PostToolUse hook rewrote, structured content included", async () => {
    const result = await proxy.client.callTool({
      name: "read_text_file",
      arguments: { path: join(files, "env.txt") },
    });
    expect(text(result)).toBe("[redacted by hook]");
    expect(JSON.stringify(result)).not.toContain("abc123");
    expect(result.structuredContent).toEqual({ content: "[redacted by hook]" });
  });

  it("passes an unmatched call through exactly as the server answers it", async () => {
    const args = { name: "list_directory", arguments: { path: files } };
    expect(await proxy.client.callTool(args)).toEqual(await direct.callTool(args));
  });

  it("refuses arguments a hook rewrote out of the tool's schema, naming the hook", async () => {
    const result = await proxy.client.callTool({
      name: "edit_file",
      arguments: { path: join(files, "public.txt"), edits: [] },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/rewritten by hook .*echo.*input schema/s);
    expect(readFileSync(join(files, "public.txt"), "utf8")).toBe("public words\n");
  });
});

describe("a hook that times out", () => {
  const hang = { matcher: "mcp__fs__list_directory", command: "sleep 30", timeout: 1 };

  it.each([
    ["block", true],
    ["continue", false],
  ] as const)("with failBehavior %s, the call is refused: %s", async (failBehavior, refused) => {
    const box = scratch();
    const settings = writeSettings(box.dir, "s.json", { PreToolUse: [hang] }, { failBehavior });
    const proxy = await startProxy(
      ["--settings", settings, "--name", "fs"],
      [FILESYSTEM_SERVER, box.dir],
      box.dir,
    );
    try {
      const result = await proxy.client.callTool({
        name: "list_directory",
        arguments: { path: box.dir },
      });
      expect(result.isError === true).toBe(refused);
      if (refused) expect(text(result)).toMatch(/timed out|time/i);
      else expect(text(result)).toContain("s.json");
    } finally {
      await proxy.client.close();
      box.cleanup();
    }
  });
});

describe("the proxy in front of a server that misbehaves", () => {
  let box: ReturnType<typeof scratch>;
  beforeAll(() => {
    box = scratch();
  });
  afterAll(() => box.cleanup());

  it("answers a call the server crashed in with an error quoting its stderr, and every later one", async () => {
    const proxy = await startProxy(["--name", "tiny"], TINY_SERVER, box.dir);
    try {
      await expect(proxy.client.callTool({ name: "crash", arguments: {} })).rejects.toThrow(
        /exited[\s\S]*out of memory in crash\(\)/,
      );
      await expect(
        proxy.client.callTool({ name: "echo", arguments: { text: "hi" } }),
      ).rejects.toThrow(/exited/);
    } finally {
      await proxy.client.close();
    }
  });

  describe("one proxy, shared by the calls that leave the server running", () => {
    // Starting the proxy is most of each test's time.
    let proxy: ProxyProcess;
    beforeAll(async () => {
      proxy = await startProxy(["--name", "tiny"], TINY_SERVER, box.dir);
    });
    afterAll(async () => {
      await proxy?.client.close();
    });

    it("passes progress to the client and its cancellation to the server", async () => {
      const stop = new AbortController();
      const call = proxy.client.callTool({ name: "slow", arguments: {} }, undefined, {
        signal: stop.signal,
        onprogress: (p) => {
          if (p.progress === 1) stop.abort("the user pressed Esc");
        },
      });
      await expect(call).rejects.toThrow(/Esc/);
      const answer = await proxy.client.callTool({ name: "was_cancelled", arguments: {} });
      expect(text(answer)).toBe("cancelled");
    });

    it("passes resources through untouched", async () => {
      const read = await proxy.client.readResource({ uri: "tiny://greeting" });
      expect(read.contents[0]).toMatchObject({ text: "hello from a resource" });
    });
  });

  it("fires SessionStart when the client connects and SessionEnd when it leaves", async () => {
    const log = join(box.dir, "session.log");
    const settings = writeSettings(box.dir, "session.json", {
      SessionStart: [{ command: `echo start >> ${log}` }],
      SessionEnd: [{ command: `echo end >> ${log}` }],
    });
    const proxy = await startProxy(
      ["--settings", settings, "--name", "tiny"],
      TINY_SERVER,
      box.dir,
    );
    expect(readFileSync(log, "utf8")).toBe("start\n");
    const gone = new Promise<void>((done) => {
      proxy.transport.onclose = () => done();
    });
    await proxy.client.close();
    await gone;
    expect(readFileSync(log, "utf8")).toBe("start\nend\n");
  });

  it("exits 1 with the server's stderr when the server never starts", async () => {
    const [command, ...bin] = proxyCommand();
    const child = spawn(
      command,
      [...bin, "--no-defaults", "--", ...TINY_SERVER, "--fail-to-start"],
      {
        cwd: box.dir,
        env: { PATH: process.env.PATH ?? "", HOME: box.dir },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const answers = new ReadBuffer();
    const answer = new Promise<unknown>((done) => {
      child.stdout.on("data", (d: Buffer) => {
        answers.append(d);
        const message = answers.readMessage();
        if (message) done(message);
      });
    });
    child.stdin.write(
      serializeMessage({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }),
    );
    const code = await new Promise<number | null>((done) => child.once("exit", done));
    expect(code).toBe(1);
    expect(await answer).toMatchObject({
      id: 1,
      error: { message: expect.stringContaining("cannot open the database") },
    });
    expect(stderr).toContain("did not start");
    expect(stderr).toContain("cannot open the database at /nonexistent/db");
  });
});

describe("the server's environment", () => {
  /** What the wrapped server sees of each variable, through the tiny server's env tool. */
  async function seen(env: Record<string, string>, names: string[]) {
    const box = scratch();
    const proxy = await startProxy(["--name", "tiny"], TINY_SERVER, box.dir, env);
    try {
      const out: Record<string, string> = {};
      for (const name of names) {
        out[name] = text(await proxy.client.callTool({ name: "env", arguments: { name } }));
      }
      return out;
    } finally {
      await proxy.client.close();
      box.cleanup();
    }
  }

  it("keeps the host's secrets from the server, as for every MCP server the hooks start", async () => {
    const names = [
      "A3S_TOKEN",
      "A3S_HOOKS_MODEL_API_KEY",
      "OPENAI_ADMIN_KEY",
      "OPENAI_API_KEY",
      "SERVER_SETTING",
    ];
    // OPENAI_API_KEY is the hooks' model key here: the server does not get it.
    expect(
      await seen(
        { A3S_TOKEN: "t", OPENAI_ADMIN_KEY: "admin", OPENAI_API_KEY: "k", SERVER_SETTING: "on" },
        names,
      ),
    ).toEqual({
      A3S_TOKEN: "(unset)",
      A3S_HOOKS_MODEL_API_KEY: "(unset)",
      OPENAI_ADMIN_KEY: "(unset)",
      OPENAI_API_KEY: "(unset)",
      SERVER_SETTING: "on",
    });
    // The hooks pay with their own key: OPENAI_API_KEY is the user's, for the user's tools.
    expect(
      await seen({ A3S_HOOKS_MODEL_API_KEY: "hooks", OPENAI_API_KEY: "mine" }, names),
    ).toMatchObject({ A3S_HOOKS_MODEL_API_KEY: "(unset)", OPENAI_API_KEY: "mine" });
  });
});

describe("--serve-hooks", () => {
  it("hosts the hook server, so a remote A3sClient hook blocks an MCP tool call", async () => {
    const box = scratch();
    const token = "t0ken-for-this-test-only";
    const proxy = await startProxy(["--serve-hooks", "0", "--name", "tiny"], TINY_SERVER, box.dir, {
      A3S_TOKEN: token,
    });
    const [, address] = await proxy.waitForStderr(/hooks: listening on (\S+)/);
    const remote = new A3sClient({ address: address!, token });
    try {
      remote.registerHook("PreToolUse", {
        matcher: "mcp__tiny__echo",
        handler: (event) =>
          event.args.text === "rm -rf" ? { action: "block", reason: "not from here" } : undefined,
      });
      await remote.ready({ timeoutMs: 20_000 });
      const blocked = await proxy.client.callTool({ name: "echo", arguments: { text: "rm -rf" } });
      expect(blocked.isError).toBe(true);
      expect(text(blocked)).toContain("not from here");
      const fine = await proxy.client.callTool({ name: "echo", arguments: { text: "ls" } });
      expect(text(fine)).toBe("ls");
      // The server must not get the token: with it, it could register hooks that approve its own calls.
      const env = await proxy.client.callTool({ name: "env", arguments: { name: "A3S_TOKEN" } });
      expect(text(env)).toBe("(unset)");
    } finally {
      await remote.close();
      await proxy.client.close();
      box.cleanup();
    }
  });
});
