import { HookError, type HookEventName } from "@a3s-lab/hooks-core";
import type { RegisterHookRequest, Transport } from "@a3s-lab/hooks-core/wire";
import type { LocalHook } from "./hook-runner.js";

/** A local hook with what the agent has been told about it. */
export interface SyncedHook extends LocalHook {
  readonly request: RegisterHookRequest;
  /** The agent holds this hook on the current connection. */
  registered: boolean;
  /** Removes the `signal` listener of the registration, if any. */
  detach?: () => void;
}

export interface HookSyncDeps {
  transport: Transport;
  hooks: Map<string, SyncedHook>;
  /** The agent refused a registration for good; the hook has been dropped locally. */
  rejected(hook: SyncedHook, error: HookError): void;
  registered(hook: SyncedHook): void;
  unregistered(id: string, event: HookEventName | undefined): void;
}

// Errors that no retry will fix: the registration itself is wrong or over a limit.
const PERMANENT = new Set([
  "INVALID_CONFIG",
  "UNKNOWN_EVENT",
  "INVALID_PATTERN",
  "LIMIT_EXCEEDED",
  "PERMISSION_DENIED",
  "INVALID_OUTPUT",
]);

/**
 * Keeps the agent's view of this client's hooks equal to the local one: the local map is
 * the truth, registrations and removals are sent one at a time, in order (registration order
 * breaks priority ties in the agent), and after a reconnect the agent's list is compared with
 * the local one so only what it lost is sent again.
 */
export class HookSync {
  readonly #deps: HookSyncDeps;
  /** Hooks removed locally that the agent may still hold. */
  readonly #removals = new Map<string, HookEventName | undefined>();
  #running: Promise<void> | undefined;
  #again = false;
  #connection = 0;

  constructor(deps: HookSyncDeps) {
    this.#deps = deps;
  }

  /** True while something is left to tell the agent. */
  get dirty(): boolean {
    if (this.#removals.size > 0) return true;
    for (const hook of this.#deps.hooks.values()) if (!hook.registered) return true;
    return false;
  }

  /** A hook was removed locally: tell the agent if it knew about it. */
  removed(hook: SyncedHook): void {
    if (hook.registered) this.#removals.set(hook.id, hook.event);
  }

  /** The connection was lost: nothing is known to be registered on the next one. */
  disconnected(): void {
    this.#connection++;
  }

  /**
   * A new connection: compare the agent's list with the local map (the agent may have kept
   * our hooks inside its reconnect window, or lost them in a restart), then send the rest.
   */
  async reconcile(signal: AbortSignal): Promise<void> {
    const connection = ++this.#connection;
    const { hooks } = await this.#deps.transport.call("ListHooks", {}, { signal });
    if (connection !== this.#connection) return;
    const held = new Set(hooks.map((h) => h.hookId));
    for (const hook of this.#deps.hooks.values()) hook.registered = held.has(hook.id);
    this.#removals.clear();
    for (const h of hooks) {
      if (!this.#deps.hooks.has(h.hookId)) this.#removals.set(h.hookId, undefined);
    }
    await this.flush(signal);
  }

  /** Send what is pending. Concurrent calls share one run; a call during a run runs again after it. */
  flush(signal: AbortSignal): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#once(signal);
        } while (this.#again);
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  async #once(signal: AbortSignal): Promise<void> {
    const connection = this.#connection;
    for (const [id, event] of [...this.#removals]) {
      try {
        await this.#deps.transport.call("UnregisterHook", { hookId: id }, { signal });
      } catch (error) {
        if (!HookError.is(error, "NOT_FOUND")) throw error;
      }
      if (connection !== this.#connection) return;
      // Registered again under the same id meanwhile? Then the newer registration stands.
      if (this.#removals.get(id) === event) this.#removals.delete(id);
      this.#deps.unregistered(id, event);
    }
    for (const hook of [...this.#deps.hooks.values()]) {
      if (hook.registered || this.#deps.hooks.get(hook.id) !== hook) continue;
      try {
        await this.#deps.transport.call("RegisterHook", hook.request, { signal });
      } catch (error) {
        const e = HookError.from(error);
        if (!PERMANENT.has(e.code)) throw e;
        if (this.#deps.hooks.get(hook.id) === hook) {
          this.#deps.hooks.delete(hook.id);
          hook.detach?.();
        }
        this.#deps.rejected(hook, e);
        continue;
      }
      if (connection !== this.#connection) return;
      if (this.#deps.hooks.get(hook.id) === hook) {
        hook.registered = true;
        this.#deps.registered(hook);
      } else {
        // Unregistered locally while the registration was on its way.
        this.#removals.set(hook.id, hook.event);
        this.#again = true;
      }
    }
  }
}
