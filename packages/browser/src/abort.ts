import { HookError } from "@a3s-lab/hooks-core";

/** The error of an aborted call: the signal's reason as a `HookError` (`ABORTED`). */
export function aborted(signal: AbortSignal): HookError {
  return HookError.from(
    signal.reason ?? new HookError("ABORTED", "the call was aborted"),
    "ABORTED",
  );
}

/** Wait for `promise`, or reject at once when `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(aborted(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
