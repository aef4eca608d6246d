import {
  createServer,
  type request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { createEvent, HookEngine, HookError, type HookEvent, runTool } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { expectCachedFetch } from "../../../../../test-support/cached-fetch.ts";
import { toHookInput } from "../hook-input.js";
import {
  checkHttpHook,
  createHttpHandler,
  type HttpHandlerDeps,
  type HttpHookDefinition,
  resolveHeaders,
} from "./http-hook.js";
import type { HostResolver } from "./http-hook-address.js";
import { urlAllowed } from "./http-url-policy.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A real server on a loopback address; `answer` decides each response. */
async function serve(
  answer: (req: Received, res: ServerResponse) => void,
  host = "127.0.0.1",
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      received.push(r);
      answer(r, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${host}:${port}/hook`, received };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s-1", tool: "Bash", args: { command } });

async function run(
  definition: Omit<HttpHookDefinition, "type">,
  event: HookEvent = bash("ls"),
  deps: HttpHandlerDeps = {},
  signal = new AbortController().signal,
) {
  const handler = createHttpHandler({ type: "http", ...definition }, deps);
  return handler({ event, input: toHookInput(event, { cwd: "/repo" }), signal });
}

async function failure(promise: Promise<unknown>): Promise<HookError> {
  try {
    await promise;
  } catch (error) {
    expect(HookError.is(error)).toBe(true);
    return error as HookError;
  }
  throw new Error("expected the hook to fail");
}

describe("http hooks against a real server", () => {
  it("POSTs Claude Code's hook input as JSON; a 2xx with an empty body is continue", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200);
      res.end();
    });
    expect(await run({ url: server.url })).toEqual({ action: "continue" });
    const [req] = server.received;
    expect(req?.method).toBe("POST");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req!.body)).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s-1",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      cwd: "/repo",
    });
  });

  it("a deny answer blocks with its reason", async () => {
    const server = await serve((_, res) =>
      json(res, 200, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no rm here",
        },
      }),
    );
    expect(await run({ url: server.url }, bash("rm -rf /"))).toMatchObject({
      action: "block",
      reason: "no rm here",
    });
  });

  it("a defer answer carries its A3S routing (hookSpecificOutput.a3sRouting)", async () => {
    const server = await serve((_, res) =>
      json(res, 200, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "defer",
          permissionDecisionReason: "pushing needs a person",
          a3sRouting: { deciders: ["alice"], deadline: "2h" },
        },
      }),
    );
    expect(await run({ url: server.url }, bash("git push"))).toEqual({
      action: "continue",
      stopTurn: {
        reason: "pushing needs a person",
        deferred: true,
        routing: { deciders: ["alice"], deadline: "2h" },
      },
    });
    const bad = await serve((_, res) =>
      json(res, 200, {
        hookSpecificOutput: { permissionDecision: "defer", a3sRouting: { deadline: "soon" } },
      }),
    );
    expect((await failure(run({ url: bad.url }, bash("git push")))).message).toContain(
      "hookSpecificOutput.a3sRouting.deadline",
    );
  });

  it("an a3sRespond answer is the tool's result: through the engine, the tool does not run", async () => {
    const server = await serve((req, res) => {
      const { tool_input } = JSON.parse(req.body) as { tool_input: { url: string } };
      json(
        res,
        200,
        tool_input.url === "https://example.com"
          ? {
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                a3sRespond: { output: "<h1>cached</h1>" },
              },
            }
          : {},
      );
    });
    const handler = createHttpHandler({ type: "http", url: server.url }, {});
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      matcher: "WebFetch",
      handler: (event, ctx) =>
        handler({ event, input: toHookInput(event, { cwd: "/repo" }), signal: ctx.signal }),
    });
    await expectCachedFetch((url, tool) =>
      runTool(engine, { sessionId: "s", tool: "WebFetch", args: { url } }, tool),
    );
    const bad = await serve((_, res) =>
      json(res, 200, { hookSpecificOutput: { a3sRespond: { output: "x", exitCode: 0 } } }),
    );
    expect((await failure(run({ url: bad.url }))).message).toContain(
      "hookSpecificOutput.a3sRespond",
    );
  });

  it("an allow answer with updatedInput rewrites the tool input", async () => {
    const server = await serve((_, res) =>
      json(res, 200, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command: "ls -la" },
        },
      }),
    );
    const answer = await run({ url: server.url });
    expect(answer).toMatchObject({
      action: "continue",
      permission: "allow",
      modified: { args: { command: "ls -la" } },
    });
  });

  it("a 500 is a failure of the hook (HANDLER_FAILED naming the status), not a block", async () => {
    const server = await serve((_, res) => json(res, 500, { decision: "block", reason: "x" }));
    const error = await failure(run({ url: server.url }));
    expect(error.code).toBe("HANDLER_FAILED");
    expect(error.message).toContain("500");
  });

  it("a 2xx body that is not JSON is INVALID_OUTPUT", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("all good");
    });
    expect((await failure(run({ url: server.url }))).code).toBe("INVALID_OUTPUT");
  });

  it("a server that never answers times out (TIMEOUT) and the request is aborted", async () => {
    let closed!: () => void;
    const gone = new Promise<void>((r) => {
      closed = r;
    });
    const server = await serve((_, res) => {
      res.on("close", closed);
    });
    const error = await failure(run({ url: server.url }, bash("ls"), { timeoutMs: 100 }));
    expect(error.code).toBe("TIMEOUT");
    await gone;
  });

  it("an abort from the engine is passed on as the engine's reason", async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const pending = run({ url: server.url }, bash("ls"), {}, controller.signal);
    while (server.received.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new HookError("TIMEOUT", "engine gave up"));
    const error = await failure(pending);
    expect(error.message).toBe("engine gave up");
  });

  it("a body over the cap blocks on an event that can block, and fails elsewhere", async () => {
    const huge = JSON.stringify({ decision: "approve", pad: "x".repeat(200_000) });
    const server = await serve((_, res) => json(res, 200, huge));
    expect(await run({ url: server.url }, bash("ls"), { maxResponseBytes: 4096 })).toMatchObject({
      action: "block",
      reason: expect.stringContaining("cap"),
    });
    const post = createEvent("PostToolUse", {
      sessionId: "s",
      tool: "Bash",
      args: {},
      result: { success: true, output: "", duration: 1 },
    });
    const error = await failure(run({ url: server.url }, post, { maxResponseBytes: 4096 }));
    expect(error.code).toBe("INVALID_OUTPUT");
  });

  it("a redirect to another origin is refused, and that origin never hears from the hook", async () => {
    const other = await serve((_, res) => json(res, 200, {}), "127.0.0.2");
    const server = await serve((_, res) => {
      res.writeHead(307, { location: other.url });
      res.end();
    });
    const error = await failure(run({ url: server.url }));
    expect(error.code).toBe("HANDLER_FAILED");
    expect(error.message).toContain("redirect");
    expect(other.received).toHaveLength(0);
  });

  it("a same-origin redirect is refused too (it could leave the path allowedHttpHookUrls allows)", async () => {
    const server = await serve((req, res) => {
      if (req.url === "/hook") {
        res.writeHead(302, { location: "/elsewhere" });
        res.end();
      } else json(res, 200, {});
    });
    expect((await failure(run({ url: server.url }))).code).toBe("HANDLER_FAILED");
    expect(server.received.map((r) => r.url)).toEqual(["/hook"]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's ${VAR} header syntax, literally
  it("fills $VAR and ${VAR} in headers from allowedEnvVars only; any other becomes empty", async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    await run(
      {
        url: server.url,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's ${VAR} header syntax, literally
        headers: { authorization: "Bearer $TOKEN", "x-team": "${TEAM}-$SECRET" },
        allowedEnvVars: ["TOKEN", "TEAM"],
      },
      bash("ls"),
      { env: { TOKEN: "t0k", TEAM: "blue", SECRET: "do-not-send" } },
    );
    expect(server.received[0]?.headers.authorization).toBe("Bearer t0k");
    expect(server.received[0]?.headers["x-team"]).toBe("blue-");
  });

  it("httpHookAllowedEnvVars narrows what a hook's own allowedEnvVars allow", async () => {
    const definition: HttpHookDefinition = {
      type: "http",
      url: "http://127.0.0.1/",
      headers: { "x-a": "$A", "x-b": "$B" },
      allowedEnvVars: ["A", "B"],
    };
    expect(resolveHeaders(definition, { A: "1", B: "2" }, { allowedEnvVars: ["A"] })).toEqual({
      "x-a": "1",
      "x-b": "",
    });
  });

  it("refuses to send a header whose variable holds a line break", async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    const error = await failure(
      run({ url: server.url, headers: { "x-a": "$A" }, allowedEnvVars: ["A"] }, bash("ls"), {
        env: { A: "1\r\nx-evil: 1" },
      }),
    );
    expect(error.code).toBe("INVALID_CONFIG");
    expect(server.received).toHaveLength(0);
  });
});

describe("checkHttpHook", () => {
  const check = (d: Omit<HttpHookDefinition, "type">, policy = {}) =>
    checkHttpHook({ type: "http", ...d }, policy).map(
      (p) => `${p.severity} ${p.field}: ${p.message}`,
    );

  it("refuses credentials in the URL and schemes other than http and https", () => {
    expect(check({ url: "http://user:pw@127.0.0.1/" })[0]).toMatch(/^error url: credentials/);
    expect(check({ url: "file:///etc/passwd" })[0]).toMatch(/^error url: expected an http/);
    expect(check({ url: "not a url" })).toEqual(["error url: expected an absolute URL"]);
  });

  it("warns once per unlisted variable, naming the header and the variable", () => {
    expect(
      check({
        url: "http://127.0.0.1/",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's ${VAR} header syntax, literally
        headers: { "X-Team": "$TEAM-${SECRET}", Authorization: "Bearer $TOKEN" },
        allowedEnvVars: ["TOKEN"],
      }),
    ).toEqual([
      "warning headers.X-Team: uses $TEAM, which allowedEnvVars does not list: it is sent as an empty string",
      "warning headers.X-Team: uses $SECRET, which allowedEnvVars does not list: it is sent as an empty string",
    ]);
    expect(
      check(
        { url: "http://127.0.0.1/", headers: { A: "$TOKEN" }, allowedEnvVars: ["TOKEN"] },
        { allowedEnvVars: [] },
      ),
    ).toEqual([
      "warning headers.A: uses $TOKEN, which httpHookAllowedEnvVars does not list: it is sent as an empty string",
    ]);
  });

  it("refuses the host's secrets in headers, even when allowedEnvVars lists them", () => {
    const definition: HttpHookDefinition = {
      type: "http",
      url: "http://127.0.0.1/",
      headers: { A: "$A3S_TOKEN", B: "$A3S_HOOKS_MODEL_API_KEY", C: "Bearer $OPENAI_API_KEY" },
      allowedEnvVars: ["A3S_TOKEN", "A3S_HOOKS_MODEL_API_KEY", "OPENAI_API_KEY"],
    };
    const { type: _, ...rest } = definition;
    expect(check(rest)).toEqual([
      "warning headers.A: uses $A3S_TOKEN, a secret of the host that no hook is sent: it is sent as an empty string",
      "warning headers.B: uses $A3S_HOOKS_MODEL_API_KEY, a secret of the host that no hook is sent: it is sent as an empty string",
      "warning headers.C: uses $OPENAI_API_KEY, a secret of the host that no hook is sent: it is sent as an empty string",
    ]);
    const env = { A3S_TOKEN: "t", A3S_HOOKS_MODEL_API_KEY: "k", OPENAI_API_KEY: "o" };
    expect(resolveHeaders(definition, env, { allowedEnvVars: Object.keys(env) })).toEqual({
      A: "",
      B: "",
      C: "Bearer ",
    });
  });

  it("allowedHttpHookUrls: * is any run of characters; an empty list allows nothing", () => {
    expect(urlAllowed("https://hooks.example.com/a/b", ["https://hooks.example.com/*"])).toBe(true);
    expect(
      urlAllowed("https://evil.com/?https://hooks.example.com/", ["https://hooks.example.com/*"]),
    ).toBe(false);
    expect(urlAllowed("http://127.0.0.1:8080/x", ["http://127.0.0.1:*/x"])).toBe(true);
    expect(urlAllowed("http://127.0.0.1:8080/x", ["http://127.0.0.1:*/y"])).toBe(false);
    expect(urlAllowed("http://a/ab", ["http://a/*b*b"])).toBe(false);
    expect(check({ url: "http://127.0.0.1/" }, { allowedUrls: [] })).toEqual([
      "error url: allowedHttpHookUrls is empty: no http hook may run",
    ]);
  });
});

describe("private addresses", () => {
  /** The connection seam: records what it was asked to connect to and connects nowhere. */
  function connectSpy() {
    const calls: { url: string; lookup: LookupFunction | undefined }[] = [];
    const request = ((url: URL, options: RequestOptions) => {
      calls.push({ url: String(url), lookup: options.lookup });
      throw new Error("the test connects nowhere");
    }) as unknown as typeof httpRequest;
    return { calls, request };
  }

  const resolver = (table: Record<string, string[]>) => {
    const asked: string[] = [];
    const resolve: HostResolver = async (hostname) => {
      asked.push(hostname);
      return (table[hostname] ?? []).map((address) => ({
        address,
        family: address.includes(":") ? 6 : 4,
      }));
    };
    return { asked, resolve };
  };

  async function refused(url: string, table: Record<string, string[]> = {}, policy = {}) {
    const spy = connectSpy();
    const dns = resolver(table);
    const error = await failure(
      run({ url }, bash("ls"), { request: spy.request, resolve: dns.resolve, policy }),
    );
    expect(spy.calls).toEqual([]);
    return { error, asked: dns.asked };
  }

  it("refuses a name that resolves to a private address, naming the host and the address; nothing connects", async () => {
    const { error } = await refused("http://hooks.example.test/x", {
      "hooks.example.test": ["10.0.0.1"],
    });
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain("hooks.example.test");
    expect(error.message).toContain("10.0.0.1");
    expect(error.message).toContain("10.0.0.0/8");
  });

  it("refuses a name with a public and a private address (every address is checked)", async () => {
    const { error } = await refused("https://mixed.example.test/", {
      "mixed.example.test": ["93.184.216.34", "192.168.1.1"],
    });
    expect(error.message).toContain("192.168.1.1");
  });

  it("refuses an IPv4-mapped IPv6 address of the metadata service", async () => {
    const { error } = await refused("http://meta.example.test/", {
      "meta.example.test": ["::ffff:169.254.169.254"],
    });
    expect(error.message).toContain("::ffff:169.254.169.254");
    expect(error.message).toContain("169.254.0.0/16");
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"],
    ["http://2852039166/", "169.254.169.254"],
    ["http://012.0.0.1/", "10.0.0.1"],
    ["http://172.16.5.4:8080/", "172.16.5.4"],
    ["http://100.100.100.200/", "100.100.100.200"],
    ["http://0.0.0.0:8080/", "0.0.0.0"],
    ["http://224.0.0.1/", "224.0.0.1"],
    ["http://[::]/", "::"],
    ["http://[fd12:3456::1]/", "fd12:3456::1"],
    ["http://[fe80::1]/", "fe80::1"],
    ["http://[::ffff:10.0.0.1]/", "::ffff:a00:1"],
  ])(
    "refuses the address literal in %s (as WHATWG URL normalises it: %s) without resolving",
    async (url, address) => {
      const { error, asked } = await refused(url);
      expect(error.code).toBe("INVALID_CONFIG");
      expect(error.message).toContain(address);
      expect(asked).toEqual([]);
    },
  );

  it("connects only to the addresses it checked: the connection's lookup answers with them", async () => {
    const spy = connectSpy();
    const dns = resolver({ "hooks.example.test": ["93.184.216.34", "2606:2800:220:1::1"] });
    await failure(
      run({ url: "https://hooks.example.test/x" }, bash("ls"), {
        request: spy.request,
        resolve: dns.resolve,
      }),
    );
    expect(dns.asked).toEqual(["hooks.example.test"]);
    const lookup = spy.calls[0]?.lookup;
    expect(lookup).toBeTypeOf("function");
    const all = await new Promise((resolve, reject) =>
      lookup!("hooks.example.test", { all: true }, (err, addresses) =>
        err ? reject(err) : resolve(addresses),
      ),
    );
    expect(all).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
    const v6 = await new Promise((resolve, reject) =>
      lookup!("hooks.example.test", { family: 6 }, (err, address) =>
        err ? reject(err) : resolve(address),
      ),
    );
    expect(v6).toBe("2606:2800:220:1::1");
    expect(dns.asked).toHaveLength(1);
  });

  it("an allowedHttpHookUrls entry that names the host allows its private address", async () => {
    const spy = connectSpy();
    const dns = resolver({ "policy.corp.test": ["10.1.2.3"] });
    const deps = { request: spy.request, resolve: dns.resolve };
    const error = await failure(
      run({ url: "http://policy.corp.test:8080/hook" }, bash("ls"), {
        ...deps,
        policy: { allowedUrls: ["http://policy.corp.test:8080/*"] },
      }),
    );
    expect(error.message).toContain("the test connects nowhere");
    expect(spy.calls).toHaveLength(1);
    await failure(
      run({ url: "http://10.0.0.5/hook" }, bash("ls"), {
        ...deps,
        policy: { allowedUrls: ["http://10.0.0.5/*"] },
      }),
    );
    expect(spy.calls).toHaveLength(2);
  });

  it("a pattern naming the host with any port (:*) allows it too", async () => {
    const spy = connectSpy();
    await failure(
      run({ url: "http://10.0.0.5:8080/hook" }, bash("ls"), {
        request: spy.request,
        policy: { allowedUrls: ["http://10.0.0.5:*/hook"] },
      }),
    );
    expect(spy.calls.map((c) => c.url)).toEqual(["http://10.0.0.5:8080/hook"]);
  });

  it("a resolver that never answers does not hold the hook past its timeout; nothing connects", async () => {
    const spy = connectSpy();
    const error = await failure(
      run({ url: "http://slow.example.test/" }, bash("ls"), {
        request: spy.request,
        resolve: () => new Promise(() => {}),
        timeoutMs: 50,
      }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(spy.calls).toEqual([]);
  });

  it("a pattern with * in its host allows the URL but not a private address", async () => {
    for (const pattern of ["http://*", "http://*.corp.test:8080/*", "http://policy.corp.test*"]) {
      const { error } = await refused(
        "http://policy.corp.test:8080/hook",
        { "policy.corp.test": ["10.1.2.3"] },
        { allowedUrls: [pattern] },
      );
      expect(error.message).toContain("10.1.2.3");
    }
  });

  it("loopback stays allowed: a name pinned to 127.0.0.1 and a decimal spelling of it reach the real server", async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    const port = new URL(server.url).port;
    const dns = resolver({ "policy.example.test": ["127.0.0.1"] });
    expect(
      await run({ url: `http://policy.example.test:${port}/hook` }, bash("ls"), {
        resolve: dns.resolve,
      }),
    ).toEqual({ action: "continue" });
    expect(await run({ url: `http://2130706433:${port}/hook` })).toEqual({ action: "continue" });
    expect(server.received).toHaveLength(2);
    expect(server.received[0]?.headers.host).toBe(`policy.example.test:${port}`);
  });
});
