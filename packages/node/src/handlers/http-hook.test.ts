import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createEvent, HookError, type HookEvent } from "@a3s-lab/hooks-core";
import { afterEach, describe, expect, it } from "vitest";
import { toHookInput } from "../command/hook-input.js";
import {
  checkHttpHook,
  createHttpHandler,
  type HttpHandlerDeps,
  type HttpHookDefinition,
  resolveHeaders,
  urlAllowed,
} from "./http-hook.js";

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
