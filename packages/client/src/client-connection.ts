import { HookError, type Timers } from "@a3s-lab/hooks-core";
import type { Emitter } from "@a3s-lab/hooks-core/internal";
import type { HookResponseMessage, HookStream, Transport } from "@a3s-lab/hooks-core/wire";
import type { Backoff } from "./backoff.js";
import type { A3sClientEvents } from "./client-events.js";
import type { HookRunner } from "./hook-runner.js";
import type { HookSync } from "./hook-sync.js";
import type { ConnectionState } from "./types.js";

// The agent refused who we are: retrying with the same credentials cannot help.
const FATAL = new Set(["UNAUTHENTICATED", "PERMISSION_DENIED"]);

export interface ClientConnectionDeps {
  address: string;
  transport: Transport;
  sync: HookSync;
  runner: HookRunner;
  events: Emitter<A3sClientEvents>;
  timers: Timers;
  backoff: Backoff;
  connectTimeoutMs: number;
  /** How to give a token, when none was given; undefined when one was. */
  missingToken: string | undefined;
}

interface Waiter {
  resolve(): void;
  reject(error: HookError): void;
}

export function closedError(): HookError {
  return new HookError("UNAVAILABLE", "the client is closed");
}

/**
 * The client's one hook stream over time: open it, reconcile the hooks, keep them in sync,
 * notice when it drops, reopen it with backoff (or give up for good on a refusal of our
 * credentials), and tell whoever waits in `ready()` how it went.
 */
export class ClientConnection {
  readonly #deps: ClientConnectionDeps;
  #state: ConnectionState = "idle";
  #fatal: HookError | undefined;
  #lastError: HookError | undefined;
  #stream: HookStream | undefined;
  #attempt: AbortController | undefined;
  #retry: unknown;
  #waiters: Waiter[] = [];

  constructor(deps: ClientConnectionDeps) {
    this.#deps = deps;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Answer a firing on whatever stream is open now. */
  send(message: HookResponseMessage): void {
    this.#stream?.send(message);
  }

  /** Connect if nothing has asked to yet. */
  start(): void {
    if (this.#state === "idle") void this.#connect();
  }

  /** Something changed locally: start, or send it now when connected. */
  kick(): void {
    if (this.#state === "idle") {
      this.start();
      return;
    }
    const attempt = this.#attempt;
    if (this.#state !== "ready" || !attempt) return;
    this.#deps.sync.flush(attempt.signal).then(
      () => this.#resolveWaiters(),
      (error: unknown) => this.#lost(attempt, HookError.from(error, "UNAVAILABLE")),
    );
  }

  /** See `A3sClient.ready`. */
  ready(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    if (this.#state === "closed") return Promise.reject(closedError());
    if (this.#fatal) return Promise.reject(this.#fatal);
    this.start();
    if (this.#settled()) return Promise.resolve();
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(HookError.from(signal.reason, "ABORTED"));
    const timeoutMs = options.timeoutMs ?? this.#deps.connectTimeoutMs;
    const timers = this.#deps.timers;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        timers.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
      };
      const waiter: Waiter = {
        resolve: () => {
          done();
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(HookError.from(signal?.reason, "ABORTED"));
      const timer = timers.setTimeout(() => {
        const last = this.#lastError ? ` (last error: ${this.#lastError.message})` : "";
        waiter.reject(
          new HookError(
            "UNAVAILABLE",
            `not connected to the agent at ${this.#deps.address} within ${timeoutMs} ms${last}`,
            { cause: this.#lastError },
          ),
        );
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /**
   * Send what is pending (the caller has just unregistered every hook) for up to `flushMs`,
   * then stop for good: no more retries, running handlers aborted, waiters rejected.
   */
  async close(flushMs: number): Promise<void> {
    if (this.#state === "closed") return;
    const attempt = this.#attempt;
    if (this.#state === "ready" && attempt) {
      let timer: unknown;
      await Promise.race([
        this.#deps.sync.flush(attempt.signal).catch(() => {}),
        new Promise<void>((resolve) => {
          timer = this.#deps.timers.setTimeout(resolve, flushMs);
        }),
      ]);
      this.#deps.timers.clearTimeout(timer);
    }
    this.#setState("closed");
    this.#deps.timers.clearTimeout(this.#retry);
    this.#attempt?.abort(closedError());
    this.#stream?.close();
    this.#stream = undefined;
    this.#deps.runner.abortAll(closedError());
    for (const waiter of [...this.#waiters]) waiter.reject(closedError());
    await this.#deps.transport.close();
  }

  async #connect(): Promise<void> {
    if (this.#state === "closed" || this.#fatal) return;
    this.#setState(this.#state === "idle" ? "connecting" : "reconnecting", this.#lastError);
    const attempt = new AbortController();
    this.#attempt = attempt;
    const { runner, sync } = this.#deps;
    let stream: HookStream;
    try {
      stream = await this.#deps.transport.openHookStream(
        {
          onEvent: (message) => runner.handle(message),
          onInvalid: (error, raw) => runner.invalid(error, raw),
          onClose: (error) =>
            this.#lost(attempt, error ?? new HookError("UNAVAILABLE", "the hook stream closed")),
        },
        { signal: attempt.signal },
      );
    } catch (error) {
      this.#lost(attempt, HookError.from(error, "UNAVAILABLE"));
      return;
    }
    // close() may have run while the stream was opening.
    if (this.#attempt !== attempt || (this.#state as ConnectionState) === "closed") {
      stream.close();
      return;
    }
    this.#stream = stream;
    try {
      await sync.reconcile(attempt.signal);
    } catch (error) {
      this.#lost(attempt, HookError.from(error, "UNAVAILABLE"));
      return;
    }
    if (this.#attempt !== attempt) return;
    this.#deps.backoff.reset();
    this.#lastError = undefined;
    this.#setState("ready");
    this.#resolveWaiters();
    // Registrations made while the reconcile ran.
    if (sync.dirty) this.kick();
  }

  /** What went wrong, in words that say what to do where the transport's words do not. */
  #explain(error: HookError): HookError {
    const { address, missingToken } = this.#deps;
    if (error.code === "UNAUTHENTICATED" && missingToken !== undefined) {
      return new HookError(
        "UNAUTHENTICATED",
        `the agent at ${address} needs a token: ${missingToken}`,
        { cause: error },
      );
    }
    if (error.details.connectionRefused === true) {
      return new HookError(
        "UNAVAILABLE",
        `no agent is listening at ${address} (connection refused): start the agent, or give the address it listens on (A3S_ADDRESS or the address option)`,
        { cause: error, details: error.details },
      );
    }
    return error;
  }

  /** The connection (or an attempt at one) ended: retry with backoff, or give up for good. */
  #lost(attempt: AbortController, lostWith: HookError): void {
    if (this.#attempt !== attempt || this.#state === "closed") return;
    const error = this.#explain(lostWith);
    this.#attempt = undefined;
    attempt.abort(error);
    this.#stream?.close();
    this.#stream = undefined;
    this.#deps.sync.disconnected();
    // The agent answered the firings it was waiting for when the stream dropped.
    this.#deps.runner.abortAll(
      new HookError("UNAVAILABLE", `connection lost: ${error.message}`, { cause: error }),
    );
    this.#lastError = error;
    this.#deps.events.emit("error", error);
    if (FATAL.has(error.code)) {
      this.#fatal = error;
      this.#setState("failed", error);
      for (const waiter of [...this.#waiters]) waiter.reject(error);
      return;
    }
    this.#setState("reconnecting", error);
    // Nothing listens there now: whoever waits in ready() hears it at once rather than at the
    // timeout (the client keeps trying in the background, for an agent that starts later).
    if (error.details.connectionRefused === true) {
      for (const waiter of [...this.#waiters]) waiter.reject(error);
    }
    this.#retry = this.#deps.timers.setTimeout(
      () => void this.#connect(),
      this.#deps.backoff.next(),
    );
  }

  #setState(state: ConnectionState, error?: HookError): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#deps.events.emit("state", { state, previous, ...(error ? { error } : {}) });
  }

  #settled(): boolean {
    return this.#state === "ready" && !this.#deps.sync.dirty;
  }

  #resolveWaiters(): void {
    if (!this.#settled()) return;
    for (const waiter of [...this.#waiters]) waiter.resolve();
  }
}
