import type { request as httpRequest, IncomingMessage, RequestOptions } from "node:http";
import { HookError, type HookEvent, type HookResponse } from "@a3s-lab/hooks-core";
import * as z from "zod";
import { HOST_SECRET_VARIABLES } from "../../support/host-secrets.js";
import type { SettingsHandler } from "../handler.js";
import { type HookCommonFields, secondsSchema } from "../hook-common.js";
import { interpretOutput } from "../interpret-result.js";
import { readCapped } from "../read-capped.js";
import {
  checkedAddresses,
  type HostResolver,
  pinnedLookup,
  systemResolver,
} from "./http-hook-address.js";
import { checkHttpUrl, type HttpHookPolicy, type HttpHookProblem } from "./http-url-policy.js";

export type { HttpHookPolicy, HttpHookProblem } from "./http-url-policy.js";

/** Claude Code's default for an `http` hook that sets no `timeout`: 600 seconds. */
export const HTTP_DEFAULT_TIMEOUT_SECONDS = 600;

/** Bytes of a response body read by default; the same cap as a command hook's stdout. */
export const HTTP_DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `$NAME` or `${NAME}` in a header value; the one pattern both the load check and the request use. */
const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** An RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the HTTP client sets itself; a settings file setting them could smuggle a request. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
]);

/** The fields of an `http` hook of its own (the common fields are the dispatcher's). */
export const httpHookShape = {
  type: z.literal("http", { error: 'expected "http"' }),
  url: z
    .string({ error: "expected a URL" })
    .min(1, { error: "expected a URL" })
    .max(8192, { error: "expected a URL of at most 8192 characters" })
    .describe("Where the hook input is POSTed as JSON (http: or https:)."),
  headers: z
    .record(
      z
        .string()
        .regex(HEADER_NAME, { error: "expected a header name" })
        .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), {
          error: "this header is set by the HTTP client and cannot be configured",
        }),
      z
        .string({ error: "expected a string" })
        .max(8192, { error: "expected a header value of at most 8192 characters" })
        .refine((v) => !/[\r\n\0]/.test(v), {
          error: "expected a header value without line breaks or NUL bytes",
        }),
      { error: "expected an object of header names and string values" },
    )
    .optional()
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's ${VAR} header syntax, literally
    .describe("Extra request headers; $VAR and ${VAR} are filled from allowedEnvVars only."),
  allowedEnvVars: z
    .array(z.string().regex(VARIABLE_NAME, { error: "expected a variable name" }), {
      error: "expected an array of variable names",
    })
    .max(256)
    .optional()
    .describe("The environment variables header values may use; any other becomes empty."),
  timeout: secondsSchema
    .optional()
    .describe(`Seconds before the request is cancelled. Default ${HTTP_DEFAULT_TIMEOUT_SECONDS}.`),
};

/** An `http` hook: the hook input is POSTed as JSON to `url`; the response body is its answer. */
export interface HttpHookDefinition extends HookCommonFields {
  /** Always `"http"`. */
  type: "http";
  /** Where the hook input is POSTed: `http:` or `https:`, no user name or password in it. */
  url: string;
  /** Extra request headers; `$VAR` / `${VAR}` are filled from `allowedEnvVars` only. */
  headers?: Record<string, string>;
  /**
   * Variables header values may use. Any other reference becomes an empty string, as does one
   * of the host's secrets (`HOST_SECRET_VARIABLES`: `A3S_TOKEN`, the model keys) even when listed.
   */
  allowedEnvVars?: string[];
}

/** What `createHttpHandler` needs from the host. */
export interface HttpHandlerDeps {
  /** The environment header variables are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The settings' policy keys. */
  policy?: HttpHookPolicy;
  /** Bytes of the response body read; past it the rest is not read. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Milliseconds before the request is cancelled, on top of the signal the engine gives. */
  timeoutMs?: number;
  /** Resolves the URL's host name to every address (tests). Default the system resolver. */
  resolve?: HostResolver;
  /** Opens the connection (tests). Default `node:http`'s or `node:https`'s `request`. */
  request?: typeof httpRequest;
}

/**
 * Check an http hook before it runs: the URL (http: or https:, no credentials), the policy's
 * URL patterns, and every header variable the hook or the policy does not allow (it becomes an
 * empty string: a warning naming the header and the variable).
 */
export function checkHttpHook(
  definition: HttpHookDefinition,
  policy: HttpHookPolicy = {},
): HttpHookProblem[] {
  const target = checkHttpUrl(definition.url, policy);
  if (target.url === undefined) return target.problems;
  const problems = [...target.problems];
  const allowed = allowedVariables(definition, policy);
  for (const [header, value] of Object.entries(definition.headers ?? {})) {
    for (const name of referencedVariables(value)) {
      if (allowed.has(name)) continue;
      const why = HOST_SECRET_VARIABLES.has(name)
        ? "a secret of the host that no hook is sent"
        : definition.allowedEnvVars?.includes(name) === true
          ? "which httpHookAllowedEnvVars does not list"
          : "which allowedEnvVars does not list";
      problems.push({
        severity: "warning",
        field: `headers.${header}`,
        message: `uses $${name}, ${why}: it is sent as an empty string`,
      });
    }
  }
  return problems;
}

function referencedVariables(value: string): string[] {
  return [...value.matchAll(VARIABLE_REFERENCE)].map((m) => (m[1] ?? m[2])!);
}

function allowedVariables(definition: HttpHookDefinition, policy: HttpHookPolicy): Set<string> {
  const own = definition.allowedEnvVars ?? [];
  const limit = policy.allowedEnvVars;
  return new Set(
    own.filter(
      (name) => !HOST_SECRET_VARIABLES.has(name) && (limit === undefined || limit.includes(name)),
    ),
  );
}

/** The request headers: `$VAR` / `${VAR}` filled from allowed variables, every other one emptied. */
export function resolveHeaders(
  definition: HttpHookDefinition,
  env: Readonly<Record<string, string | undefined>>,
  policy: HttpHookPolicy = {},
): Record<string, string> {
  const allowed = allowedVariables(definition, policy);
  const out: Record<string, string> = {};
  for (const [header, value] of Object.entries(definition.headers ?? {})) {
    const resolved = value.replace(VARIABLE_REFERENCE, (_, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      return allowed.has(name) && Object.hasOwn(env, name) ? (env[name] ?? "") : "";
    });
    if (/[\r\n\0]/.test(resolved)) {
      // A variable holding a line break would otherwise add a header of its own choosing.
      throw new HookError(
        "INVALID_CONFIG",
        `headers.${header}: a variable's value holds a line break or NUL byte; the request is not sent`,
      );
    }
    out[header] = resolved;
  }
  return out;
}

/**
 * The handler of one `http` hook: POST the hook input as JSON to `url` and read the response
 * body as a command hook's stdout is read. A 2xx with an empty body is continue; a 2xx with
 * JSON goes through the output normaliser; a redirect (none is followed: it could leave the
 * URL the policy allowed), another status, a connection error, a timeout or a 2xx body that
 * is not JSON throws a `HookError` and the hook's fail behaviour applies. A body over
 * `maxResponseBytes` follows the command hook's over-cap rule: on an event that can block,
 * an unreadable answer blocks.
 *
 * The host is resolved first and every address checked: a private, link-local, metadata or
 * reserved address (`HTTP_HOOK_REFUSED_RANGES`; loopback is allowed) refuses the request with
 * `INVALID_CONFIG` naming the host and the address, unless an `allowedHttpHookUrls` pattern
 * names the host. The connection goes to a checked address; the name is not resolved again.
 *
 * @example
 * ```ts
 * const handler = createHttpHandler({ type: "http", url: "http://127.0.0.1:8080/hook" }, {});
 * ```
 */
export function createHttpHandler(
  definition: HttpHookDefinition,
  deps: HttpHandlerDeps = {},
): SettingsHandler {
  const { url, problems, allowPrivate } = checkHttpUrl(definition.url, deps.policy);
  if (url === undefined || problems.length > 0) {
    throw new HookError("INVALID_CONFIG", `url: ${problems[0]?.message}`);
  }
  const maxBytes = deps.maxResponseBytes ?? HTTP_DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = deps.timeoutMs ?? (definition.timeout ?? HTTP_DEFAULT_TIMEOUT_SECONDS) * 1000;
  const target: Target = {
    url,
    allowPrivate,
    resolve: deps.resolve ?? systemResolver,
    request: deps.request,
  };
  return async ({ event, input, signal }) => {
    const headers = resolveHeaders(definition, deps.env ?? process.env, deps.policy);
    const body = requestBody(input);
    const timer = AbortSignal.timeout(timeoutMs);
    const combined = AbortSignal.any([signal, timer]);
    let response: IncomingMessage;
    try {
      response = await send(target, headers, body, combined);
    } catch (error) {
      if (HookError.is(error) && !combined.aborted) throw error;
      throw requestError(error, signal, timer, timeoutMs);
    }
    try {
      return await readAnswer(response, event as HookEvent, maxBytes);
    } catch (error) {
      if (HookError.is(error)) throw error;
      throw requestError(error, signal, timer, timeoutMs);
    } finally {
      // A body left unread would hold the connection open.
      response.destroy();
    }
  };
}

/** Where one http hook's requests go, as its URL policy decided when the handler was made. */
interface Target {
  readonly url: URL;
  readonly allowPrivate: boolean;
  readonly resolve: HostResolver;
  readonly request: typeof httpRequest | undefined;
}

/** The hook input as the request body. */
function requestBody(input: unknown): string {
  try {
    return JSON.stringify(input);
  } catch (error) {
    throw new HookError(
      "INVALID_EVENT",
      `the event cannot be written as JSON for the request body: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Resolve and check the host's addresses, then POST to one of them; resolves with the response's head. */
async function send(
  target: Target,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { url, allowPrivate, resolve } = target;
  const addresses = await checkedAddresses(url, { resolve, allowPrivate, signal });
  // node:http and node:https load on the first request: the CLI's `validate` and `list`
  // reach this module and never send one, and the two cost more to load than the rest of it.
  const request =
    target.request ??
    (url.protocol === "https:"
      ? (await import("node:https")).request
      : (await import("node:http")).request);
  return post(request, url, body, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      accept: "application/json",
      "content-length": String(Buffer.byteLength(body)),
    },
    signal,
    lookup: pinnedLookup(addresses),
    // Never a pooled connection: it went to an address checked for another request, under
    // that hook's policy.
    agent: false,
  });
}

/** The hook's answer in a response: a 2xx body read as a command hook's stdout is read. */
async function readAnswer(
  response: IncomingMessage,
  event: HookEvent,
  maxBytes: number,
): Promise<HookResponse> {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    // Following it could leave the URL the policy allowed.
    const location = response.headers.location;
    throw new HookError(
      "HANDLER_FAILED",
      `the server answered ${status} with a redirect${location ? ` to ${clip(location)}` : ""}; redirects are not followed`,
      { details: { status } },
    );
  }
  if (status < 200 || status >= 300) {
    throw new HookError("HANDLER_FAILED", `the server answered ${status}`, {
      details: { status },
    });
  }
  const read = await readCapped(response, maxBytes);
  const answer = interpretOutput(read.text, {
    event,
    truncated: read.truncated,
    bytes: read.bytes,
    maxOutputBytes: maxBytes,
    what: "the response body",
    plainText: "error",
    details: { status },
  });
  if (answer instanceof HookError) throw answer;
  return answer;
}

/** Send one request and wait for the response's head. */
function post(
  request: typeof httpRequest,
  url: URL,
  body: string,
  options: RequestOptions,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, resolve);
    req.on("error", reject);
    req.end(body);
  });
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function requestError(
  error: unknown,
  signal: AbortSignal,
  timer: AbortSignal,
  timeoutMs: number,
): HookError {
  if (signal.aborted) {
    return HookError.is(signal.reason)
      ? signal.reason
      : new HookError("ABORTED", "the hook was cancelled; the request was aborted", {
          cause: signal.reason,
        });
  }
  if (timer.aborted)
    return new HookError(
      "TIMEOUT",
      `no answer within ${timeoutMs / 1000} s; the request was aborted`,
    );
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new HookError("HANDLER_FAILED", `the request failed: ${why}`, { cause: error });
}
