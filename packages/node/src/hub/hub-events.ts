import { Emitter } from "@a3s-lab/hooks-core/internal";

/** What the hook hub reports about its remote clients, besides the engine's own audit stream. */
export type HubEvent = {
  /** Milliseconds since the epoch. */
  time: number;
} & (
  | { type: "client_connected"; clientId: string; resumed: boolean }
  | {
      type: "client_disconnected";
      clientId: string;
      reason: string;
      /** Firings that were waiting for this client and were answered at once with their fail behaviour. */
      failedFirings: number;
    }
  | {
      type: "client_expired";
      clientId: string;
      /**
       * Hooks removed from the engine because the client did not come back in time, or left
       * for good (a browser page that went away).
       */
      removedHooks: number;
    }
  | {
      type: "warning";
      message: string;
      clientId?: string;
      hookId?: string;
      eventId?: string;
    }
);

/** The `type` of a hub event: `client_connected`, `client_disconnected`, `client_expired`, `warning`. */
export type HubEventType = HubEvent["type"];
/** The hub event of one type. */
export type HubEventOf<T extends HubEventType> = Extract<HubEvent, { type: T }>;
/** A listener for one hub event type, or for all of them (`"*"`). */
export type HubListener<T extends HubEventType | "*"> = (event: HubEvents[T]) => void;

/**
 * The hub events by the name `HookHub.on` takes: each under its own type, and every one
 * under `"*"`.
 */
export type HubEvents = { [T in HubEventType]: HubEventOf<T> } & { "*": HubEvent };

/** The hub's emitter: core's, with each event also delivered under `"*"`. */
export class HubEmitter extends Emitter<HubEvents> {
  /** Deliver an event under its type, then under `"*"`. */
  report(event: HubEvent): void {
    this.emit(event.type, event as never);
    this.emit("*", event);
  }
}
