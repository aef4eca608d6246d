/** A function that stops a subscription; also `using`-disposable. Calling it twice is harmless. */
export type Unsubscribe = (() => void) & Disposable;

/** The options every `on(…)` of these packages takes. */
export interface SubscribeOptions {
  /** Stops the subscription when aborted; an already-aborted signal subscribes nothing. */
  signal?: AbortSignal;
}

const noop: Unsubscribe = Object.assign(() => {}, { [Symbol.dispose]: () => {} });

/**
 * The one typed emitter behind the engine's audit stream, the hook server's client events and
 * `A3sClient`'s events. A listener that throws is reported (through `reportError` where the
 * platform has one) and never reaches the emitter or the listeners after it: what an emitter
 * reports must not break the firing or connection that reported it.
 *
 * @example
 * ```ts
 * const events = new Emitter<{ ready: { at: number } }>();
 * using stop = events.on("ready", ({ at }) => console.log(at));
 * events.emit("ready", { at: Date.now() });
 * ```
 */
export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(value: never) => void>>();
  #count = 0;

  /**
   * Listen to one name. Returns the way to stop, which also removes its abort listener from
   * `options.signal`; with a signal that is already aborted, nothing is subscribed.
   */
  on<K extends keyof Events>(
    name: K,
    listener: (value: Events[K]) => void,
    options: SubscribeOptions = {},
  ): Unsubscribe {
    const signal = options.signal;
    if (signal?.aborted) return noop;
    // A wrapper per subscription, so the same function subscribed twice is stopped once each.
    const fn = (value: Events[K]) => listener(value);
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(fn as (value: never) => void);
    this.#count++;
    let subscribed = true;
    const stop = () => {
      if (!subscribed) return;
      subscribed = false;
      this.#count--;
      set.delete(fn as (value: never) => void);
      if (set.size === 0 && this.#listeners.get(name) === set) this.#listeners.delete(name);
      signal?.removeEventListener("abort", stop);
    };
    signal?.addEventListener("abort", stop, { once: true });
    return Object.assign(stop, { [Symbol.dispose]: stop });
  }

  /** How many listeners one name has, or all names together. */
  listenerCount(name?: keyof Events): number {
    return name === undefined ? this.#count : (this.#listeners.get(name)?.size ?? 0);
  }

  /** Call every listener of `name`, in subscription order; returns whether there was one. */
  emit<K extends keyof Events>(name: K, value: Events[K]): boolean {
    const set = this.#listeners.get(name);
    if (set === undefined) return false;
    for (const listener of [...set]) {
      try {
        (listener as (value: Events[K]) => void)(value);
      } catch (error) {
        (globalThis as { reportError?: (error: unknown) => void }).reportError?.(error);
      }
    }
    return true;
  }
}
