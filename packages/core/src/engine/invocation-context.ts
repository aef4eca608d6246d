import type { HookEvent } from "../events/event-schemas.js";
import type { ContextKey, ContextValues } from "./middleware.js";
import type { HookContext } from "./registration.js";

type AbortListener = (reason: unknown) => void;

const NOOP = () => undefined;
const NOT_ABORTED = Symbol();

/**
 * What a handler gets as `ctx`. A class rather than an object literal with a getter: V8 builds
 * a literal with an accessor slowly. The signal is made
 * on first use, because an `AbortController` is costly to make and most handlers never look at
 * it; {@link InvocationContext.onAbort} tells a handler about an abort without one. Exported
 * for transports that run handlers on the far side of a wire (the client SDK extends it).
 */
export class InvocationContext implements HookContext {
  #controller: AbortController | undefined;
  #listeners: AbortListener[] | undefined;
  /** The abort's reason once aborted; NOT_ABORTED before. */
  #reason: unknown = NOT_ABORTED;
  readonly hookId: string;
  readonly sessionId: string;
  readonly eventId: string;

  constructor(hookId: string, event: Pick<HookEvent, "sessionId" | "eventId">) {
    this.hookId = hookId;
    this.sessionId = event.sessionId;
    this.eventId = event.eventId;
  }

  /** A value middleware set for the firing: none here (see {@link ValuedContext}). */
  get<T>(_key: ContextKey<T>): T | undefined {
    return undefined;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      // Asked for after the abort: hand out a signal that says so.
      if (this.#reason !== NOT_ABORTED) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  onAbort(listener: AbortListener): () => void {
    if (this.#reason !== NOT_ABORTED) {
      listener(this.#reason);
      return NOOP;
    }
    (this.#listeners ??= []).push(listener);
    // indexOf's -1 becomes 2³²-1 under >>> 0: splice there removes nothing.
    return () => void this.#listeners?.splice(this.#listeners.indexOf(listener) >>> 0, 1);
  }

  /**
   * Abort the handler: its `onAbort` listeners, then its signal (if it asked for one). Once.
   * Returns what a listener threw, if one did (the others still run).
   */
  static abort(ctx: InvocationContext, reason: unknown): unknown {
    if (ctx.#reason !== NOT_ABORTED) return undefined;
    ctx.#reason = reason;
    const listeners = ctx.#listeners;
    ctx.#listeners = undefined;
    let failure: unknown;
    for (const listener of listeners ?? []) {
      try {
        listener(reason);
      } catch (error) {
        failure ??= error;
      }
    }
    ctx.#controller?.abort(reason);
    return failure;
  }
}

/**
 * The context of a hook whose firing went through middleware: it reads the values they set.
 * A subclass, so a context of a firing without middleware carries no field for them.
 */
export class ValuedContext extends InvocationContext {
  readonly #values: ContextValues;

  constructor(
    hookId: string,
    event: Pick<HookEvent, "sessionId" | "eventId">,
    values: ContextValues,
  ) {
    super(hookId, event);
    this.#values = values;
  }

  override get<T>(key: ContextKey<T>): T | undefined {
    return this.#values.get(key);
  }
}
