import { callAborted, raceAbort as raceAbortWith } from "@a3s-lab/hooks-core/internal";

/** The error of an aborted call: the signal's reason as a `HookError` (`ABORTED`). */
export const aborted = callAborted;

/** Wait for `promise`, or reject at once when `signal` aborts, with {@link aborted}'s error. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceAbortWith(promise, signal, callAborted);
}
