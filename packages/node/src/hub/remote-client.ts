import {
  block,
  eventSpecs,
  type HookContext,
  HookError,
  type HookEvent,
  type HookResponse,
} from "@a3s-lab/hooks-core";
import { type HookEventMessage, readHookResponse } from "@a3s-lab/hooks-core/wire";
import { remotePayload } from "../otel/trace-context.js";
import type { RateLimiter } from "./rate-limiter.js";
import type { RemoteHook } from "./remote-hook.js";

/**
 * Where the hub sends a client's firings: one per open hook stream, made by a transport
 * adapter (the gRPC HookStream's in `grpc-hook-service.ts`, a WebSocket's in
 * `ws-event-sink.ts`).
 */
export interface HookEventSink {
  /**
   * Deliver a firing or a cancellation. A firing's `payload` is the engine's event object
   * itself, the same object for every hook it goes to, so an adapter can encode it once (see
   * `encoded-payload.ts`). Throws a `HookError` when it cannot deliver (`LIMIT_EXCEEDED` for
   * an event over the size limit, `UNAVAILABLE` for a stream that has ended).
   */
  send(message: HookEventMessage): void;
  /** End the stream from the server's side. */
  close(error: HookError): void;
}

interface Pending {
  readonly hook: RemoteHook;
  resolve(response: HookResponse): void;
  reject(error: HookError): void;
  /** Stops listening for the hook's abort. */
  cleanup: () => void;
}

export type Warn = (message: string, fields?: { hookId?: string; eventId?: string }) => void;

const key = (eventId: string, hookId: string) => `${eventId}\n${hookId}`;

const noop = () => undefined;

function listen(signal: AbortSignal, onAbort: (reason: unknown) => void): () => void {
  const listener = () => onAbort(signal.reason);
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

function idOf(value: unknown, field: string): string | undefined {
  const id = (value as Record<string, unknown> | null)?.[field];
  return typeof id === "string" ? id : undefined;
}

/** One remote client: its hooks, its stream (when connected) and the firings it owes answers to. */
export class RemoteClient {
  readonly id: string;
  /** The resume secret: who presents it may act for this client id. Never sent to anyone else. */
  readonly secret: string;
  readonly hooks = new Map<string, RemoteHook>();
  readonly limiter: RateLimiter;
  stream: HookEventSink | undefined;
  expiry: unknown;
  readonly #pending = new Map<string, Pending>();
  readonly #warn: Warn;
  #idle: (() => void)[] = [];

  constructor(id: string, secret: string, limiter: RateLimiter, warn: Warn) {
    this.id = id;
    this.secret = secret;
    this.limiter = limiter;
    this.#warn = warn;
  }

  /** Firings sent and not yet answered. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Resolves once no firing waits for this client. */
  whenIdle(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #take(k: string): Pending | undefined {
    const pending = this.#pending.get(k);
    if (!pending) return undefined;
    this.#pending.delete(k);
    pending.cleanup();
    if (this.#pending.size === 0 && this.#idle.length > 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const resolve of waiters) resolve();
    }
    return pending;
  }

  /**
   * The engine handler of every remote hook: send the firing, wait for the answer for
   * (event id, hook id). While the client is away, fail at once so the engine applies the
   * hook's fail behaviour without waiting for a timeout.
   */
  dispatch(hook: RemoteHook, event: HookEvent, ctx: HookContext): Promise<HookResponse> {
    const stream = this.stream;
    if (!stream) {
      throw new HookError(
        "UNAVAILABLE",
        `remote hook ${hook.config.name || hook.hookId}: its client is disconnected`,
        { details: { hookId: hook.hookId } },
      );
    }
    const k = key(event.eventId, hook.hookId);
    if (this.#pending.has(k)) {
      throw new HookError(
        "INTERNAL",
        `event ${event.eventId} is already waiting for an answer from hook ${hook.hookId}: fire each event object once at a time`,
      );
    }
    return new Promise<HookResponse>((resolve, reject) => {
      const pending: Pending = { hook, resolve, reject, cleanup: noop };
      this.#pending.set(k, pending);
      const onAbort = (reason: unknown) => {
        if (this.#pending.get(k) !== pending) return;
        this.#take(k);
        const error = HookError.from(reason, "ABORTED");
        this.#sendCancel(hook, event, error.message);
        reject(error);
      };
      // onAbort needs no AbortController (one per firing would cost); a context made
      // by hand may only have the signal.
      pending.cleanup = ctx.onAbort ? ctx.onAbort(onAbort) : listen(ctx.signal, onAbort);
      if (this.#pending.get(k) !== pending) return; // aborted already
      try {
        stream.send({
          hookId: hook.hookId,
          eventType: event.eventType,
          sessionId: event.sessionId,
          timestamp: event.timestamp,
          eventId: event.eventId,
          deadlineMs: Date.now() + hook.timeout,
          payload: remotePayload(event, hook.hookId, ctx) as unknown as Record<string, unknown>,
        });
      } catch (error) {
        this.#take(k);
        const failure = HookError.from(error, "UNAVAILABLE");
        // An event too large to send: its size is the caller's to choose (a tool's input), so
        // on an event that can block, a hook that was never shown it blocks, whatever its fail
        // behaviour, as a command hook's over-cap answer does.
        if (failure.code === "LIMIT_EXCEEDED" && eventSpecs[event.eventType]?.canBlock) {
          const name = hook.config.name || hook.hookId;
          resolve(block(`remote hook ${name} was not shown the event: ${failure.message}`));
          return;
        }
        reject(failure);
      }
    });
  }

  #sendCancel(hook: RemoteHook, event: HookEvent, reason: string): void {
    try {
      this.stream?.send({
        hookId: hook.hookId,
        eventType: event.eventType,
        sessionId: event.sessionId,
        timestamp: event.timestamp,
        eventId: event.eventId,
        deadlineMs: 0,
        cancel: true,
        cancelReason: reason,
      });
    } catch {
      // The stream is gone: the client has nothing left to abort.
    }
  }

  /**
   * A HookResponse from the client, as the transport decoded it (or the error decoding hit).
   * Matched by (event id, hook id); anything malformed, late or unknown is reported and, when
   * a firing waits for it, fails that firing. Returns true when the message answered a
   * waiting firing (well or badly): such answers are bounded by the firings sent.
   */
  receive(raw: unknown, decodeError?: HookError): boolean {
    // The one check of an answer on its way to the engine, which takes it as it is.
    const answer = decodeError
      ? { success: false as const, error: decodeError }
      : readHookResponse(raw);
    const hookId = answer.success ? answer.data.hookId : idOf(raw, "hookId");
    const eventId = answer.success ? answer.data.eventId : idOf(raw, "eventId");
    const pending =
      hookId !== undefined && eventId !== undefined ? this.#take(key(eventId, hookId)) : undefined;
    if (pending && answer.success) {
      pending.resolve(answer.data.response);
      return true;
    }
    const fields = {
      ...(hookId !== undefined ? { hookId } : {}),
      ...(eventId !== undefined ? { eventId } : {}),
    };
    if (!pending) {
      const hook = hookId === undefined ? undefined : this.hooks.get(hookId);
      if (hook) hook.rejectedResponses++;
      this.#warn(
        answer.success
          ? `the client answered event ${eventId} for hook ${hookId}, but no firing waits for that answer (late, cancelled or unknown)`
          : `the client sent a malformed HookResponse: ${answer.error.message}`,
        fields,
      );
      return false;
    }
    const error = (answer as { error: HookError }).error;
    // Reaches block reasons: name the hook, never the client (see HookHub.register).
    const label = `remote hook ${pending.hook.config.name || pending.hook.hookId}`;
    if (error.code !== "HANDLER_FAILED") {
      pending.hook.rejectedResponses++;
      this.#warn(`${label} answered with an invalid response: ${error.message}`, fields);
    }
    pending.reject(
      new HookError(error.code, `${label}: ${error.message}`, { cause: error, path: error.path }),
    );
    return true;
  }

  /** Answer every waiting firing with `error` (the client went away, the server closes). */
  failPending(error: HookError): number {
    const keys = [...this.#pending.keys()];
    for (const k of keys) this.#take(k)?.reject(error);
    return keys.length;
  }
}
