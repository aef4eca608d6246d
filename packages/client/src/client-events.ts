import type { AuditEvent, HookError, Unsubscribe } from "@a3s-lab/hooks-core";
import type { ConnectionState } from "./types.js";

/** The events an `A3sClient` emits, by name. */
export interface A3sClientEvents {
  /** The connection changed state; `error` says why it left `ready`, or why it failed. */
  state: { state: ConnectionState; previous: ConnectionState; error?: HookError };
  /**
   * Something went wrong that the client survived: a lost connection, a registration the agent
   * refused (`error.details.hookId`), a handler that threw (`details.hookId`, `details.eventId`).
   */
  error: HookError;
  /** This client's own hooks at work, at the level `setHookAuditLevel` chose. */
  audit: AuditEvent;
}

export type A3sClientEventName = keyof A3sClientEvents;

/**
 * A small typed emitter. Unlike Node's, an `error` with no listener is not thrown: a hooks
 * client must never crash its host process over a handler's mistake.
 */
export class ClientEmitter {
  readonly #listeners = new Map<string, Set<(value: never) => void>>();

  on<K extends A3sClientEventName>(
    name: K,
    listener: (value: A3sClientEvents[K]) => void,
    options: { signal?: AbortSignal } = {},
  ): Unsubscribe {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(listener);
    const off = () => void set.delete(listener);
    options.signal?.addEventListener("abort", off, { once: true });
    return Object.assign(off, { [Symbol.dispose]: off });
  }

  has(name: A3sClientEventName): boolean {
    return (this.#listeners.get(name)?.size ?? 0) > 0;
  }

  emit<K extends A3sClientEventName>(name: K, value: A3sClientEvents[K]): void {
    for (const listener of this.#listeners.get(name) ?? []) {
      try {
        (listener as (value: A3sClientEvents[K]) => void)(value);
      } catch {
        // A listener's bug stays the listener's: the client keeps serving hooks.
      }
    }
  }
}
