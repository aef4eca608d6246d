import { HookError, type HookErrorCode, type Timers } from "@a3s-lab/hooks-core";
import {
  MAX_FRAME_CHARS,
  PROTOCOL,
  parseWireFrame,
  type WireFrame,
  WS_CLOSE_CODES,
} from "@a3s-lab/hooks-core/wire";
import type { RawData, WebSocket } from "ws";
import type { AgentService } from "../hub/agent-service.js";
import type { Authenticator } from "../hub/authenticator.js";
import type { AttachedStream, HookHub } from "../hub/hook-hub.js";
import { type RateLimit, RateLimiter } from "../hub/rate-limiter.js";
import { errorFrame, isAgentRequest, type OutFrame, WsAgentCalls } from "./ws-agent-calls.js";
import { webSocketEventSink } from "./ws-event-sink.js";

/** What every WebSocket of one endpoint shares. */
export interface WsConnectionDeps {
  hub: HookHub;
  authenticate: Authenticator;
  agent: AgentService | undefined;
  /** Aborted when the server closes. */
  closing: AbortSignal;
  /** Largest frame accepted, and largest event sent. */
  maxMessageBytes: number;
  /** Bytes of firings waiting to be sent before the client counts as not reading. */
  maxQueuedBytes: number;
  /** How long a socket has to authenticate. */
  authTimeoutMs: number;
  /** Frames per socket. */
  frameRate: RateLimit;
  /** The server's clock, on which `frameRate` refills. */
  timers: Pick<Timers, "now">;
  /** Called once, when the socket's Hello is accepted. */
  onAuthenticated?: (() => void) | undefined;
}

function textOf(data: RawData): string {
  const bytes = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.isBuffer(data)
      ? data
      : Buffer.from(data);
  return bytes.toString("utf8");
}

/**
 * The message of a HookResponse frame (its frame id, meaningless on an answer, left out), or
 * undefined for any other text. Answers are most of a client's frames; the hub checks each
 * one (its fast path for the common answers, the schema for the rest), so they skip the frame
 * schema's run here.
 */
function hookResponseOf(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_FRAME_CHARS || !text.includes('"HookResponse"')) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  // A frame id pairs a request with its answer; a HookResponse is itself the answer.
  const { type, id: _id, ...message } = raw as Record<string, unknown>;
  return type === "HookResponse" ? message : undefined;
}

const HOOK_REQUESTS = new Set(["RegisterHookRequest", "UnregisterHookRequest", "ListHooksRequest"]);

const CLOSE_FOR: Partial<Record<HookErrorCode, number>> = {
  UNAUTHENTICATED: WS_CLOSE_CODES.unauthenticated,
  PERMISSION_DENIED: WS_CLOSE_CODES.forbiddenOrigin,
  TIMEOUT: WS_CLOSE_CODES.authTimeout,
  ABORTED: WS_CLOSE_CODES.replaced,
  LIMIT_EXCEEDED: WS_CLOSE_CODES.rateLimited,
  UNAVAILABLE: WS_CLOSE_CODES.goingAway,
  INVALID_OUTPUT: WS_CLOSE_CODES.unsupportedData,
};

/**
 * A close reason fits in 123 bytes (`ws` throws on a longer one); the `Error` frame before it
 * carries the whole message. The cut steps back to a character boundary: half a character
 * would decode to U+FFFD (3 bytes) and push the reason past the limit.
 */
export function shortReason(message: string): string {
  const reason = Buffer.from(message, "utf8");
  if (reason.length <= 123) return message;
  let end = 120; // leaves 3 bytes for the ellipsis
  // Continuation bytes are 10xxxxxx: back up to the first byte of the character cut in two.
  while (end > 0 && ((reason[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${reason.subarray(0, end).toString("utf8")}…`;
}

/** The code a malformed request is refused with: the same as the gRPC adapter's. */
function requestErrorCode(type: unknown, error: HookError): HookErrorCode {
  if (error.code === "LIMIT_EXCEEDED") return error.code;
  if (typeof type === "string" && HOOK_REQUESTS.has(type)) return "INVALID_CONFIG";
  if (typeof type === "string" && isAgentRequest(type)) return "INVALID_EVENT";
  return error.code;
}

/**
 * One WebSocket of the hook server: the first frame must be `Hello` (token and client id)
 * within the deadline; then the socket is the client's hook stream, and carries its
 * RegisterHook / UnregisterHook / ListHooks calls and AgentService calls as request frames
 * with ids. Every frame is checked by core's wire schemas; a frame flood or an oversized
 * frame closes the socket with a clear code.
 */
export class WsConnection {
  readonly #socket: WebSocket;
  readonly #deps: WsConnectionDeps;
  readonly #limiter: RateLimiter;
  #attached: AttachedStream | undefined;
  #calls: WsAgentCalls | undefined;
  #closed = false;
  readonly #authTimer: ReturnType<typeof setTimeout>;

  constructor(socket: WebSocket, deps: WsConnectionDeps) {
    this.#socket = socket;
    this.#deps = deps;
    this.#limiter = new RateLimiter(deps.frameRate, deps.timers);
    this.#authTimer = setTimeout(
      () =>
        this.close(
          new HookError(
            "TIMEOUT",
            `Hello: the first frame must authenticate within ${deps.authTimeoutMs} ms`,
          ),
        ),
      deps.authTimeoutMs,
    );
    this.#authTimer.unref();
    this.#mapOversizeClose();
    socket.on("message", (data, isBinary) => this.#message(data, isBinary));
    // 1001 from the client is a browser page going away (the HTML standard's code for a
    // document that unloads): it will not come back, so its hooks must not outlive it.
    socket.on("close", (code) =>
      this.#gone(`the socket closed (code ${code})`, code === WS_CLOSE_CODES.goingAway),
    );
    socket.on("error", () => {});
  }

  /** Send `Error` (the whole story), then close with the code that sums it up. */
  close(error: HookError, code = CLOSE_FOR[error.code] ?? WS_CLOSE_CODES.internalError): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#authTimer);
    // The stream is over now: its firings must not wait for a close handshake the client may
    // never answer (one that stopped reading never does).
    this.#attached?.detach(error.message);
    this.#send(errorFrame(error));
    this.#socket.close(code, shortReason(error.message));
  }

  /** End the socket at once, without a close handshake (the server is gone). */
  terminate(): void {
    this.#closed = true;
    this.#socket.terminate();
  }

  #send(frame: OutFrame): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    this.#socket.send(JSON.stringify(frame));
  }

  /**
   * `ws` ends a connection whose frame exceeds `maxPayload` with 1009 on its own; say it with
   * this endpoint's code (4413) and an `Error` frame, like every other refusal.
   */
  #mapOversizeClose(): void {
    const socket = this.#socket;
    const close = socket.close.bind(socket);
    socket.close = (code?: number, reason?: string | Buffer) => {
      if (code !== 1009 || this.#closed) return close(code, reason);
      this.#closed = true;
      const error = new HookError(
        "LIMIT_EXCEEDED",
        `frame: larger than ${this.#deps.maxMessageBytes} bytes, the most this server accepts`,
        { details: { limit: this.#deps.maxMessageBytes } },
      );
      // The frame is unread, so the firing it may have answered is unknown: every firing of
      // this stream fails now (fail behaviour), and the audit says why.
      this.#attached?.detach(error.message);
      this.#send(errorFrame(error));
      close(WS_CLOSE_CODES.frameTooLarge, shortReason(error.message));
    };
  }

  #message(data: RawData, isBinary: boolean): void {
    if (this.#closed) return;
    let text: string | undefined;
    let answer: Record<string, unknown> | undefined;
    if (!isBinary && this.#attached) {
      text = textOf(data);
      answer = hookResponseOf(text);
      // An answer to a firing this server sent costs no frame budget: the firings bound those,
      // and a busy agent must not close a client for keeping up. Late, unknown or unreadable
      // answers (already reported) do count.
      if (answer !== undefined && this.#attached.receive(answer)) return;
    }
    const wait = this.#limiter.take();
    if (wait > 0) {
      const { burst, perSecond } = this.#deps.frameRate;
      this.close(
        new HookError(
          "LIMIT_EXCEEDED",
          `frame rate: at most ${burst} frames at once and ${perSecond} per second per connection, answers to its firings aside`,
        ),
        WS_CLOSE_CODES.rateLimited,
      );
      return;
    }
    if (answer !== undefined) return;
    if (isBinary) {
      this.close(
        new HookError(
          "INVALID_OUTPUT",
          "frame: binary frames are not part of the protocol; send JSON text",
        ),
        WS_CLOSE_CODES.unsupportedData,
      );
      return;
    }
    text ??= textOf(data);
    if (this.#attached) this.#frame(text);
    else this.#hello(text);
  }

  #hello(text: string): void {
    const parsed = parseWireFrame(text);
    if (!parsed.success || parsed.data.type !== "Hello") {
      const why = parsed.success
        ? `got a ${parsed.data.type}`
        : parsed.error.message.replace(/^Hello\./, "");
      this.close(
        new HookError(
          "UNAUTHENTICATED",
          `Hello: the first frame must be a Hello with the client id and token (${why})`,
          { path: ["Hello"] },
        ),
      );
      return;
    }
    const hello = parsed.data;
    if (hello.protocol && hello.protocol !== PROTOCOL) {
      this.close(
        new HookError(
          "UNAUTHENTICATED",
          `Hello.protocol: this server speaks ${PROTOCOL}, not ${JSON.stringify(hello.protocol)}`,
          { path: ["Hello", "protocol"] },
        ),
      );
      return;
    }
    let clientId: string;
    try {
      clientId = this.#deps.authenticate({ authorization: hello.token, clientId: hello.clientId });
    } catch {
      this.close(
        new HookError(
          "UNAUTHENTICATED",
          hello.token ? "Hello.token: the token is not valid" : "Hello.token: a token is required",
          { path: ["Hello", "token"] },
        ),
      );
      return;
    }
    try {
      this.#attached = this.#deps.hub.attach(
        { clientId, clientSecret: hello.clientSecret },
        webSocketEventSink(this.#socket, this.#deps, {
          isOpen: () => !this.#closed,
          close: (error, code) => this.close(error, code),
        }),
      );
    } catch (error) {
      this.close(HookError.from(error));
      return;
    }
    clearTimeout(this.#authTimer);
    this.#deps.onAuthenticated?.();
    this.#calls = new WsAgentCalls(
      this.#deps.agent,
      clientId,
      (frame) => this.#send(frame),
      this.#deps.closing,
    );
    this.#send({
      type: "Welcome",
      clientId,
      resumed: this.#attached.resumed,
      protocol: PROTOCOL,
      clientSecret: this.#attached.clientSecret,
    });
  }

  #frame(text: string): void {
    const attached = this.#attached!;
    const parsed = parseWireFrame(text);
    if (!parsed.success) {
      let raw: { type?: unknown; id?: unknown } | undefined;
      try {
        raw = JSON.parse(text) as typeof raw;
      } catch {
        // Not JSON: answered below without an id.
      }
      if (raw?.type === "HookResponse") {
        // Fails the firing it names at once and counts against that hook.
        attached.receive(raw, parsed.error);
        return;
      }
      const e = parsed.error;
      const error = new HookError(requestErrorCode(raw?.type, e), e.message, { path: e.path });
      const id = typeof raw?.id === "string" && raw.id.length <= 128 ? raw.id : undefined;
      this.#send(errorFrame(error, id));
      return;
    }
    const frame = parsed.data;
    if (frame.type === "Cancel") {
      this.#calls!.cancel(frame.id);
      return;
    }
    if (frame.type === "HookResponse") {
      const { type: _type, id: _id, ...response } = frame;
      attached.receive(response);
      return;
    }
    if (frame.id === undefined) {
      this.#send(
        errorFrame(
          new HookError("INVALID_OUTPUT", `frame.id: a ${frame.type} needs an id to be answered`, {
            path: ["id"],
          }),
        ),
      );
      return;
    }
    this.#request(frame as WireFrame & { id: string });
  }

  #request(frame: WireFrame & { id: string }): void {
    const { hub } = this.#deps;
    // The socket proved who it is in its Hello: its calls act for that client.
    const caller = {
      clientId: this.#attached!.clientId,
      clientSecret: this.#attached!.clientSecret,
    };
    const { type, id } = frame;
    const { type: _type, id: _id, ...request } = frame as WireFrame & Record<string, unknown>;
    try {
      if (type === "RegisterHookRequest")
        this.#send({ ...hub.register(caller, request), type: "RegisterHookResponse", id });
      else if (type === "UnregisterHookRequest")
        this.#send({ ...hub.unregister(caller, request), type: "UnregisterHookResponse", id });
      else if (type === "ListHooksRequest")
        this.#send({ ...hub.list(caller, request), type: "ListHooksResponse", id });
      else if (isAgentRequest(type)) this.#calls!.handle(frame);
      else
        throw new HookError(
          "INVALID_OUTPUT",
          `frame.type: ${type} is not a request a client sends`,
          { path: ["type"] },
        );
    } catch (error) {
      this.#send(errorFrame(error, id));
    }
  }

  #gone(reason: string, left: boolean): void {
    const byClient = !this.#closed;
    this.#closed = true;
    clearTimeout(this.#authTimer);
    // Only the client's own close frame counts: the server closing with 1001 (shutting down)
    // is not the client leaving.
    this.#attached?.detach(reason, { left: left && byClient });
    this.#calls?.abortAll();
  }
}
