import { HookError, type Timers } from "@a3s-lab/hooks-core";
import {
  type ErrorMessage,
  type HelloMessage,
  type HookEventMessage,
  PROTOCOL,
  parseWireFrame,
  type WelcomeMessage,
  type WireFrame,
  WS_CLOSE_CODES,
} from "@a3s-lab/hooks-core/wire";
import { aborted } from "./abort.js";
import { closeError, toHookErrorCode } from "./close-error.js";
import { OPEN, type WebSocketConstructor, type WebSocketLike } from "./websocket-like.js";

/** Someone waiting for the frames that answer one request id. */
interface FrameWaiter {
  /** A frame carrying the request's id (an answer, a generate event, or an `Error`). */
  frame(frame: WireFrame): void;
  /** The socket closed before the request was done. */
  closed(error: HookError): void;
}

/** Where a {@link WireSocket} connects, as whom, and whom it tells what arrives. */
export interface WireSocketOptions {
  url: string;
  WebSocket: WebSocketConstructor;
  hello: HelloMessage;
  /** How long the socket may take to open and be welcomed. */
  handshakeTimeoutMs: number;
  timers: Timers;
  /** A HookEvent (a firing or a cancellation). */
  onEvent(message: HookEventMessage): void;
  /** A HookEvent frame that broke the schema. */
  onInvalid(error: HookError, raw: unknown): void;
  /** The socket closed; `error` is undefined when this side closed it on purpose. */
  onClose(error: HookError | undefined): void;
}

/** A frame's message: its fields without the frame's own `type` and `id`. */
export function withoutFrameFields(frame: WireFrame): Record<string, unknown> {
  const { type: _type, id: _id, ...message } = frame as WireFrame & Record<string, unknown>;
  return message;
}

/** The error an `Error` frame stands for. */
export function errorFromFrame(frame: ErrorMessage): HookError {
  return new HookError(toHookErrorCode(frame.code), frame.message, {
    ...(frame.path ? { path: frame.path } : {}),
  });
}

/**
 * One WebSocket to the hook server: the `Hello` → `Welcome` handshake, requests paired with
 * their answers by frame id, HookEvents handed up, and one clear error when it ends.
 */
export class WireSocket {
  /** Resolves with the server's Welcome; rejects when the handshake fails. */
  readonly welcomed: Promise<WelcomeMessage>;
  readonly #socket: WebSocketLike;
  readonly #options: WireSocketOptions;
  readonly #waiters = new Map<string, FrameWaiter>();
  #nextId = 1;
  #welcome: WelcomeMessage | undefined;
  #serverError: ErrorMessage | undefined;
  #closing: HookError | undefined;
  #byUs = false;
  #ended = false;
  #resolveWelcome!: (welcome: WelcomeMessage) => void;
  #rejectWelcome!: (error: HookError) => void;
  #timer: unknown;
  #opened = false;
  /** What the runtime said when the connection failed (`ws` gives the Error; browsers nothing). */
  #failure: { code?: unknown; message?: unknown; address?: unknown; port?: unknown } | undefined;

  constructor(options: WireSocketOptions) {
    this.#options = options;
    this.welcomed = new Promise<WelcomeMessage>((resolve, reject) => {
      this.#resolveWelcome = resolve;
      this.#rejectWelcome = reject;
    });
    // A failed handshake is reported to whoever awaits it; never an unhandled rejection.
    this.welcomed.catch(() => {});
    let socket: WebSocketLike;
    try {
      socket = new options.WebSocket(options.url, PROTOCOL);
    } catch (error) {
      // A malformed URL or a blocked port: the browser throws synchronously.
      throw new HookError(
        "UNAVAILABLE",
        `cannot open a WebSocket to ${options.url}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.#socket = socket;
    this.#timer = options.timers.setTimeout(() => {
      this.close(
        WS_CLOSE_CODES.normal,
        new HookError(
          "UNAVAILABLE",
          `the agent at ${options.url} did not accept the connection within ${options.handshakeTimeoutMs} ms`,
        ),
      );
    }, options.handshakeTimeoutMs);
    socket.addEventListener("open", () => {
      this.#opened = true;
      this.#send({ type: "Hello", ...options.hello });
    });
    socket.addEventListener("message", (event) => this.#receive(event.data));
    socket.addEventListener("close", (event) => this.#ended || this.#end(event.code, event.reason));
    // The close event follows with the code; `ws` also hands over the Error (ECONNREFUSED, …),
    // which says why a connection never opened.
    socket.addEventListener("error", (event) => {
      const error = (event as { error?: unknown } | undefined)?.error;
      if (typeof error === "object" && error !== null) this.#failure ??= error;
    });
  }

  /** True once the socket has closed or is closing. */
  get done(): boolean {
    return this.#closing !== undefined || this.#ended;
  }

  /** The server still held this client's hooks when it welcomed the socket. */
  get resumed(): boolean {
    return this.#welcome?.resumed ?? false;
  }

  /**
   * Send one request and hand its answering frames to `onFrame` until it returns true (the
   * last one), an `Error` frame arrives (`fail`), the socket closes (`fail`) or `signal`
   * aborts (`fail`, and a `Cancel` goes to the server; nothing is sent when it had already
   * aborted). Returns the request's id.
   */
  exchange(
    frame: Record<string, unknown> & { type: string },
    signal: AbortSignal | undefined,
    onFrame: (frame: WireFrame) => boolean,
    fail: (error: HookError) => void,
  ): string {
    const id = String(this.#nextId++);
    if (this.done) {
      fail(this.#closing ?? new HookError("UNAVAILABLE", "the connection has closed"));
      return id;
    }
    // An abort already past (say, while the caller awaited the welcome) fires no event.
    if (signal?.aborted) {
      fail(aborted(signal));
      return id;
    }
    const onAbort = () => {
      this.cancel(id);
      fail(aborted(signal!));
    };
    this.#waiters.set(id, {
      frame: (answer) => {
        if (answer.type !== "Error" && !onFrame(answer)) return;
        this.#waiters.delete(id);
        signal?.removeEventListener("abort", onAbort);
        if (answer.type === "Error") fail(errorFromFrame(answer));
      },
      closed: (error) => {
        signal?.removeEventListener("abort", onAbort);
        fail(error);
      },
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    this.#send({ ...frame, id });
    return id;
  }

  /** Stop waiting for an id's frames, and tell the server to stop working on it. */
  cancel(id: string): void {
    if (!this.#waiters.delete(id)) return;
    // Not a message of hooks.proto: a message transport's "the caller cancelled".
    this.#send({ type: "Cancel", id });
  }

  /** Send a frame if the socket is open; drop it otherwise (the agent stopped waiting). */
  send(frame: Record<string, unknown> & { type: string }): void {
    this.#send(frame);
  }

  /**
   * Close from this side. Waiters get `error`; `onClose` gets undefined (closed on purpose)
   * unless `error` says why the socket had to go.
   */
  close(code: number = WS_CLOSE_CODES.normal, error?: HookError): void {
    if (this.done) return;
    this.#byUs = error === undefined;
    this.#closing = error ?? new HookError("UNAVAILABLE", "the connection was closed");
    try {
      this.#socket.close(code);
    } catch {
      // Closing a socket that never opened can throw in some runtimes; it is gone either way.
    }
    // Do not wait for the close handshake of a peer that may never answer; report it on a
    // later tick, as a socket's close event would, so no caller is re-entered.
    queueMicrotask(() => this.#end(code, ""));
  }

  #send(frame: Record<string, unknown>): void {
    if (this.#socket.readyState !== OPEN) return;
    try {
      this.#socket.send(JSON.stringify(frame));
    } catch {
      // The socket is closing; its close event reports why.
    }
  }

  #receive(data: unknown): void {
    if (typeof data !== "string") {
      this.close(
        WS_CLOSE_CODES.unsupportedData,
        new HookError("INVALID_OUTPUT", "the agent sent a binary frame; expected JSON text"),
      );
      return;
    }
    const parsed = parseWireFrame(data);
    if (!parsed.success) {
      this.#invalid(parsed.error, data);
      return;
    }
    const frame = parsed.data;
    if (frame.id !== undefined) {
      this.#waiters.get(frame.id)?.frame(frame);
      return;
    }
    switch (frame.type) {
      case "HookEvent":
        if (this.#welcome) this.#options.onEvent(withoutFrameFields(frame) as HookEventMessage);
        return;
      case "Welcome":
        if (this.#welcome) return;
        this.#options.timers.clearTimeout(this.#timer);
        this.#welcome = withoutFrameFields(frame) as WelcomeMessage;
        this.#resolveWelcome(this.#welcome);
        return;
      case "Error":
        // Said just before the server closes: the reason the close event will report.
        this.#serverError = withoutFrameFields(frame) as ErrorMessage;
        return;
      default:
      // A frame this version does not expect unasked: ignore it, as proto3 ignores new fields.
    }
  }

  /** A frame that broke the schema: a HookEvent is reported so its firing gets an answer. */
  #invalid(error: HookError, text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const { type, id } = (raw ?? {}) as { type?: unknown; id?: unknown };
    if (typeof id === "string" && this.#waiters.has(id)) {
      const waiter = this.#waiters.get(id)!;
      this.#waiters.delete(id);
      waiter.closed(error);
      return;
    }
    if (type === "HookEvent" && this.#welcome) this.#options.onInvalid(error, raw);
  }

  /**
   * Why a socket that never opened failed, when it closed abnormally (1006). A refused
   * connection carries `connectionRefused: true` in its details, as the gRPC transport's does,
   * so the client stops waiting at once: in Node `ws` says ECONNREFUSED; a browser gives no
   * reason at all, and a socket that could not even open is treated the same way there.
   */
  #neverOpened(code: number): HookError | undefined {
    if (this.#opened || code !== 1006) return undefined;
    const failure = this.#failure;
    const details = { closeCode: code };
    if (failure?.code === "ECONNREFUSED") {
      const host = new URL(this.#options.url).host;
      const where =
        typeof failure.address === "string" && typeof failure.port === "number"
          ? `${failure.address.includes(":") ? `[${failure.address}]` : failure.address}:${failure.port}`
          : host;
      return new HookError("UNAVAILABLE", `connection refused by ${where}`, {
        cause: failure,
        details: { ...details, connectionRefused: true },
      });
    }
    if (typeof failure?.message === "string" && failure.message !== "") {
      // A name that does not resolve, an HTTP answer instead of a WebSocket, a TLS failure:
      // the runtime's words, and the client keeps trying until its connect timeout.
      return new HookError(
        "UNAVAILABLE",
        `cannot connect to ${this.#options.url}: ${failure.message}`,
        { cause: failure, details },
      );
    }
    return new HookError(
      "UNAVAILABLE",
      `could not connect to ${this.#options.url} (refused or unreachable; the browser gives no reason)`,
      { details: { ...details, connectionRefused: true } },
    );
  }

  #end(code: number, reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#options.timers.clearTimeout(this.#timer);
    const error =
      this.#closing ??
      this.#neverOpened(code) ??
      closeError(
        code,
        reason,
        // An abnormal close (1006) is a lost connection, not what an earlier Error frame said.
        code === WS_CLOSE_CODES.normal || code === 1006 ? undefined : this.#serverError,
      );
    this.#closing = error;
    this.#rejectWelcome(error);
    const waiters = [...this.#waiters.values()];
    this.#waiters.clear();
    for (const waiter of waiters) waiter.closed(error);
    this.#options.onClose(this.#byUs ? undefined : error);
  }
}
