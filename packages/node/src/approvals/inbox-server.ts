import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { Approval } from "./approval.js";
import { ApprovalError, type ApprovalErrorReason } from "./approval-error.js";
import type { ApprovalStore } from "./approval-store.js";
import { checkDeciders, type InboxDecider } from "./inbox-deciders.js";
import { inboxPage } from "./inbox-page.js";

/** The largest JSON body the inbox reads; a bigger one gets 413. */
export const INBOX_MAX_BODY_BYTES = 300 * 1024;

/** Options of {@link startInboxServer}. */
export interface InboxServerOptions {
  /** The store to serve; the server never closes it. */
  store: ApprovalStore;
  /**
   * A shared bearer token. Whoever holds it may list and decide, under whatever name they type:
   * the name is self-declared, not proven. Required unless `deciders` are given.
   */
  token?: string | undefined;
  /**
   * Per-person tokens. A call with one of them decides as that person: the name recorded (and
   * checked against a hook's `routing.deciders`) is the token's, never typed text. With both
   * this and `token`, either kind of token works.
   */
  deciders?: readonly InboxDecider[] | undefined;
  /** The address to bind; `127.0.0.1` unless given. */
  host?: string;
  /** The port; 0 (any free one) unless given. */
  port?: number;
  /**
   * How often the list is read again, a fallback for changes no notification reported (a
   * deadline passing, a dropped connection); 10000 ms unless given. A park, decision or resume
   * through the store (from any process on PostgreSQL) is read at once.
   */
  pollIntervalMs?: number;
  /** How long a long poll (`?since=`) waits before answering unchanged; 25000 ms unless given. */
  longPollMs?: number;
  /** Where unexpected errors are written; nowhere unless given. */
  log?: (line: string) => void;
}

/** A running inbox. */
export interface InboxServer {
  /** `http://host:port/` (without the token). */
  url: string;
  /** The address it listens on. */
  host: string;
  /** The port it listens on (the one chosen when 0 was asked). */
  port: number;
  /** Stop reading the store, answer the waiting polls and close the server (not the store). */
  close(): Promise<void>;
}

interface HttpError {
  status: number;
  code: string;
  message: string;
  path?: (string | number)[];
  details?: Record<string, unknown>;
}

const STATUS: Record<ApprovalErrorReason, number> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  NOT_ALLOWED: 403,
  ALREADY_DECIDED: 409,
  NOT_DECIDED: 409,
  ALREADY_RESUMED: 409,
  STORE_BUSY: 503,
};

const API_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const digest = (text: string) => createHash("sha256").update(text).digest();

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...API_HEADERS, ...extra, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function fail(res: ServerResponse, e: HttpError, extra: Record<string, string> = {}) {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.path !== undefined) error.path = e.path;
  if (e.details !== undefined) error.details = e.details;
  send(res, e.status, { error }, extra);
}

const isLoopbackName = (name: string) =>
  name === "localhost" || name === "127.0.0.1" || name === "::1" || name === "[::1]";

/**
 * Split a Host header into name and port; undefined when it is not one. IPv6 names keep
 * their brackets off.
 */
function parseHost(value: string | undefined): { name: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(value);
  if (m === null) return undefined;
  const name = (m[1] as string).replace(/^\[|\]$/g, "").toLowerCase();
  return { name, port: Number(m[2]) };
}

function readBody(req: IncomingMessage, max: number): Promise<string | HttpError> {
  const tooLarge: HttpError = {
    status: 413,
    code: "LIMIT_EXCEEDED",
    message: `body: more than ${max} bytes`,
    path: ["body"],
  };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) over = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? tooLarge : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * A decision made with a decider's own token is theirs: `by` is the token's name. A different
 * `by` is refused rather than silently replaced.
 */
function asDecider(decision: unknown, name: string): unknown {
  if (typeof decision !== "object" || decision === null || Array.isArray(decision)) {
    return decision; // the store refuses it, naming the field
  }
  const by = (decision as { by?: unknown }).by;
  if (by !== undefined && by !== name) {
    throw new ApprovalError(
      "NOT_ALLOWED",
      `decision.by: this token decides as ${name}, not ${JSON.stringify(String(by).slice(0, 100))}`,
      { path: ["decision", "by"] },
    );
  }
  return { ...decision, by: name };
}

/**
 * Serve the approvals inbox: one page (`/`) and a JSON API under `/api/`, every API call
 * needing `Authorization: Bearer <token>`.
 *
 * - `GET /api/approvals?status=pending|all[&since=V]` → `{ version, approvals }` (deadlines
 *   that passed are decided first): the pending calls (up to 1000, oldest first) and, for
 *   `all`, then the decided ones among the 200 most recently parked. With `since`, the answer
 *   waits (long polling, up to `longPollMs`) until the list's version is no longer `V`.
 * - `GET /api/approvals/:id` → the approval.
 * - `POST /api/approvals/:id/decision` with `{ decision, by, reason?, editedInput? }` → the
 *   decided approval; 409 `ALREADY_DECIDED`, 403 `NOT_ALLOWED`, 400 `INVALID_INPUT` (naming
 *   the field), 404 `NOT_FOUND`.
 *
 * Errors are `{ error: { code, message, path?, details? } }`. The store's change notifications
 * (a park, a decision, a resume) make the list be read at once; it is also read again every
 * `pollIntervalMs` for what no notification reports.
 *
 * @example
 * ```ts
 * const store = await openApprovalStore("postgres://inbox@db/approvals");
 * const inbox = await startInboxServer({ store, token: process.env.A3S_TOKEN! });
 * console.error(`inbox: ${inbox.url}`);
 * ```
 */
export async function startInboxServer(options: InboxServerOptions): Promise<InboxServer> {
  const { store, token } = options;
  if (token !== undefined && token.length === 0) {
    throw new ApprovalError("INVALID_INPUT", "token: empty", { path: ["token"] });
  }
  const deciders = options.deciders === undefined ? [] : checkDeciders(options.deciders);
  if (token === undefined && deciders.length === 0) {
    throw new ApprovalError("INVALID_INPUT", "token: a shared token or deciders is required", {
      path: ["token"],
    });
  }
  if (token !== undefined && deciders.some((d) => d.token === token)) {
    throw new ApprovalError(
      "INVALID_INPUT",
      "deciders: a decider's token is the shared token; it would prove nothing",
      { path: ["deciders"] },
    );
  }
  const deciderDigests = deciders.map((d) => ({ name: d.name, digest: digest(d.token) }));
  const host = options.host ?? "127.0.0.1";
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;
  const longPollMs = options.longPollMs ?? 25_000;
  const tokenDigest = token === undefined ? undefined : digest(token);
  const boundName = host.replace(/^\[|\]$/g, "").toLowerCase();
  let port = options.port ?? 0;

  // The list as last read, and a version that changes whenever it does.
  let version = 0;
  let snapshot = "";
  let approvals: Approval[] = [];
  const waiters = new Set<() => void>();
  let refreshing: Promise<void> | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const refresh = (): Promise<void> => {
    refreshing ??= (async () => {
      try {
        await store.expireDue();
        // Every pending call (up to 1000, oldest first), then the decided ones among the 200
        // most recently parked, oldest first.
        const pending = await store.list({ status: "pending", limit: 1000 });
        const recent = await store.list({ order: "newest", limit: 200 });
        const list = [...pending, ...recent.filter((a) => a.status !== "pending").reverse()];
        const text = JSON.stringify(list);
        if (text !== snapshot) {
          snapshot = text;
          approvals = list;
          version += 1;
          for (const wake of waiters) wake();
        }
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      refresh()
        .catch((error) => options.log?.(`inbox: reading the store failed: ${String(error)}`))
        .finally(schedule);
    }, pollIntervalMs);
  };
  await refresh();
  // A change the store reports: read again once the read under way (which may have missed it)
  // is done; changes reported meanwhile share that one read.
  let queued = false;
  const onStoreChange = () => {
    if (closed || queued) return;
    queued = true;
    void (refreshing ?? Promise.resolve())
      .catch(() => {})
      .then(() => {
        queued = false;
        return closed ? undefined : refresh();
      })
      .catch((error) => options.log?.(`inbox: reading the store failed: ${String(error)}`));
  };
  const unwatch = await store.onChange(onStoreChange);
  schedule();

  const hostAllowed = (value: string | undefined): boolean => {
    const parsed = parseHost(value);
    if (parsed === undefined || parsed.port !== port) return false;
    // An IP literal or localhost cannot be a DNS-rebinding name; any other name must be the one
    // the server was bound to.
    return isIP(parsed.name) !== 0 || isLoopbackName(parsed.name) || parsed.name === boundName;
  };

  /**
   * Who calls: `{}` for the shared token (a name they type), `{ name }` for a decider's own
   * token, undefined for neither. Every token is compared, in constant time.
   */
  const authenticate = (req: IncomingMessage): { name?: string } | undefined => {
    const header = req.headers.authorization;
    const m = header === undefined ? null : /^Bearer (.+)$/i.exec(header);
    const given = digest(m?.[1] ?? "");
    let caller: { name?: string } | undefined;
    if (tokenDigest !== undefined && timingSafeEqual(given, tokenDigest)) caller = {};
    for (const d of deciderDigests) {
      if (timingSafeEqual(given, d.digest)) caller ??= { name: d.name };
    }
    return m === null ? undefined : caller;
  };

  const listFor = (status: string | null): Approval[] | HttpError => {
    if (status === null || status === "pending")
      return approvals.filter((a) => a.status === "pending");
    if (status === "all") return approvals;
    return {
      status: 400,
      code: "INVALID_INPUT",
      message: `status: ${JSON.stringify(status.slice(0, 40))}, not pending or all`,
      path: ["status"],
    };
  };

  const waitForChange = (since: number, req: IncomingMessage): Promise<void> =>
    new Promise((resolve) => {
      if (version !== since || closed) return resolve();
      const done = () => {
        clearTimeout(t);
        waiters.delete(done);
        req.socket.off("close", done);
        resolve();
      };
      const t = setTimeout(done, longPollMs);
      waiters.add(done);
      req.socket.once("close", done);
    });

  const api = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    caller: { name?: string },
  ) => {
    if (url.pathname === "/api/me" && req.method === "GET") {
      // The page shows a decider's proven name instead of asking for one.
      return send(res, 200, { name: caller.name ?? null });
    }
    const parts = url.pathname.split("/").slice(3); // ["", "api", "approvals", ...]
    if (url.pathname === "/api/approvals" && req.method === "GET") {
      const sinceText = url.searchParams.get("since");
      if (sinceText !== null) {
        const since = Number(sinceText);
        if (!Number.isInteger(since) || since < 0) {
          return fail(res, {
            status: 400,
            code: "INVALID_INPUT",
            message: "since: a version from an earlier answer",
            path: ["since"],
          });
        }
        await waitForChange(since, req);
      } else {
        await refresh();
      }
      const list = listFor(url.searchParams.get("status"));
      if (!Array.isArray(list)) return fail(res, list);
      return send(res, 200, { version, approvals: list });
    }
    if (!url.pathname.startsWith("/api/approvals/") || parts.length < 1 || parts.length > 2) {
      return fail(res, { status: 404, code: "NOT_FOUND", message: `no route ${url.pathname}` });
    }
    let id = parts[0] as string;
    try {
      id = decodeURIComponent(id);
    } catch {
      // Left as sent: the store refuses it, naming `id`.
    }
    if (parts.length === 1 && req.method === "GET") {
      await store.expireDue();
      return send(res, 200, await store.get(id));
    }
    if (parts.length === 2 && parts[1] === "decision" && req.method === "POST") {
      const body = await readBody(req, INBOX_MAX_BODY_BYTES);
      if (typeof body !== "string") return fail(res, body, { connection: "close" });
      let decision: unknown;
      try {
        decision = JSON.parse(body);
      } catch (cause) {
        return fail(res, {
          status: 400,
          code: "INVALID_INPUT",
          message: `body: not JSON (${(cause as Error).message})`,
          path: ["body"],
        });
      }
      if (caller.name !== undefined) decision = asDecider(decision, caller.name);
      const decided = await store.decide(id, decision as never);
      await refresh().catch(() => {});
      return send(res, 200, decided);
    }
    return fail(res, {
      status: 405,
      code: "NOT_FOUND",
      message: `${req.method} ${url.pathname}: not allowed`,
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // DNS rebinding: a page of another site whose name now points here still says its own name.
    if (!hostAllowed(req.headers.host)) {
      return fail(res, {
        status: 421,
        code: "PERMISSION_DENIED",
        message: `Host ${JSON.stringify(String(req.headers.host ?? "").slice(0, 100))} is not this inbox`,
      });
    }
    const url = new URL(req.url ?? "/", "http://inbox");
    if (url.pathname === "/" && (req.method === "GET" || req.method === "HEAD")) {
      const nonce = randomBytes(18).toString("base64");
      const html = inboxPage(nonce);
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-length": Buffer.byteLength(html),
        "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
      });
      res.end(req.method === "HEAD" ? undefined : html);
      return;
    }
    if (url.pathname === "/favicon.ico") {
      // No icon; an empty answer rather than a 404 in the browser's console.
      res.writeHead(204, { "cache-control": "no-store" });
      res.end();
      return;
    }
    if (!url.pathname.startsWith("/api/")) {
      return fail(res, { status: 404, code: "NOT_FOUND", message: `no page ${url.pathname}` });
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) {
      return fail(res, {
        status: 403,
        code: "PERMISSION_DENIED",
        message: `Origin ${JSON.stringify(origin.slice(0, 100))} may not call this inbox`,
      });
    }
    const caller = authenticate(req);
    if (caller === undefined) {
      return fail(
        res,
        {
          status: 401,
          code: "UNAUTHENTICATED",
          message: "a missing or wrong token (Authorization: Bearer <token>)",
        },
        { "www-authenticate": "Bearer" },
      );
    }
    try {
      await api(req, res, url, caller);
    } catch (error) {
      if (ApprovalError.isReason(error)) {
        return fail(res, {
          status: STATUS[error.reason],
          code: error.reason,
          message: error.message,
          ...(error.path.length === 0 ? {} : { path: [...error.path] }),
          ...(Object.keys(error.details).length === 0 ? {} : { details: { ...error.details } }),
        });
      }
      options.log?.(`inbox: ${req.method} ${url.pathname} failed: ${String(error)}`);
      return fail(res, { status: 500, code: "INTERNAL", message: "the inbox failed; see its log" });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      options.log?.(`inbox: ${String(error)}`);
      if (!res.headersSent)
        fail(res, { status: 500, code: "INTERNAL", message: "the inbox failed" });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : port;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}/`,
    host,
    port,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await unwatch();
      for (const wake of waiters) wake();
      await refreshing?.catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
