import { type FireOptions, HookEngine, type HookEvent, type HookResult } from "@a3s-lab/hooks-core";

/** One event the agent fired, and what its hooks decided. */
export interface Firing<E extends HookEvent = HookEvent> {
  event: E;
  result: HookResult<E>;
}

export type FiringListener = (firing: Firing) => void;

/**
 * A `HookEngine` that also tells listeners about every firing and its merged result. The
 * transcript, the summary table and the `--events` log all read this one stream, so they show
 * exactly what the hooks saw, including firings inside core's tool guard.
 *
 * @example
 * ```ts
 * const engine = new TracingHookEngine();
 * engine.onFiring(({ event, result }) => console.log(event.eventType, result.action));
 * ```
 */
export class TracingHookEngine extends HookEngine {
  readonly #listeners = new Set<FiringListener>();

  /** Call `listener` after each firing settles. Returns the way to stop. */
  onFiring(listener: FiringListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  override fire<E extends HookEvent>(event: E, options?: FireOptions): Promise<HookResult<E>> {
    const fired = super.fire(event, options);
    if (this.#listeners.size === 0) return fired;
    return fired.then((result) => {
      for (const listener of this.#listeners) {
        try {
          listener({ event, result } as unknown as Firing);
        } catch {
          // An observer must never change what the agent does.
        }
      }
      return result;
    });
  }
}
