import { HookError } from "@a3s-lab/hooks-core";
import { raceAbort as raceAbortWith } from "@a3s-lab/hooks-core/internal";

/** The error of an aborted call: the signal's reason as a `HookError` (`ABORTED`). */
export function aborted(signal: AbortSignal): HookError {
  return HookError.from(
    signal.reason ?? new HookError("ABORTED", "the call was aborted"),
    "ABORTED",
  );
}

/** Wait for `promise`, or reject at once when `signal` aborts, with {@link aborted}'s error. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceAbortWith(promise, signal, aborted);
}
