import type { Unsubscribe } from "@a3s-lab/hooks-core";

interface HubEventBase {
  /** Milliseconds since the epoch. */
  time: number;
}

/** What the hook hub reports about its remote clients, besides the engine's own audit stream. */
export type HubEvent =
  | (HubEventBase & { type: "client_connected"; clientId: string; resumed: boolean })
  | (HubEventBase & {
      type: "client_disconnected";
      clientId: string;
      reason: string;
      /** Firings that were waiting for this client and were answered at once with their fail behaviour. */
      failedFirings: number;
    })
  | (HubEventBase & {
      type: "client_expired";
      clientId: string;
      /** Hooks removed from the engine because the client did not come back in time. */
      removedHooks: number;
    })
  | (HubEventBase & {
      type: "warning";
      message: string;
      clientId?: string;
      hookId?: string;
      eventId?: string;
    });

export type HubEventType = HubEvent["type"];
export type HubEventOf<T extends HubEventType> = Extract<HubEvent, { type: T }>;
export type HubListener<T extends HubEventType | "*"> = (
  event: T extends HubEventType ? HubEventOf<T> : HubEvent,
) => void;

/** A tiny typed emitter: listeners that throw are isolated from the hub and from each other. */
export class HubEmitter {
  readonly #listeners = new Map<string, Set<(event: HubEvent) => void>>();

  on<T extends HubEventType | "*">(
    type: T,
    listener: HubListener<T>,
    options: { signal?: AbortSignal } = {},
  ): Unsubscribe {
    const fn = listener as (event: HubEvent) => void;
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(fn);
    const off = () => void set.delete(fn);
    options.signal?.addEventListener("abort", off, { once: true });
    return Object.assign(off, { [Symbol.dispose]: off });
  }

  emit(event: HubEvent): void {
    for (const type of [event.type, "*"]) {
      for (const fn of this.#listeners.get(type) ?? []) {
        try {
          fn(event);
        } catch {
          // A broken audit listener must not break the hub's bookkeeping.
        }
      }
    }
  }
}
