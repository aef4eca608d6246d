import { HookError } from "./hook-error.js";
/**
 * The clock and timers the engine uses. Inject fakes in tests; the default reads the globals
 * at call time, so `vi.useFakeTimers()` works too.
 */
export interface Timers {
  /** Call `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancel a timer `setTimeout` started; a handle that already fired is ignored. */
  clearTimeout(handle: unknown): void;
  /** A monotonic clock in milliseconds, for durations. */
  now(): number;
}

/** The real clock and timers (`setTimeout`, `performance.now()`). */
export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => globalThis.performance.now(),
};

/** Resolve after `ms`, or reject with the signal's reason when it aborts first. */
export function sleep(
  ms: number,
  timers: Timers = defaultTimers,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error of a call `signal` aborted: its reason as a `HookError` (`ABORTED`). */
export function callAborted(signal: AbortSignal): HookError {
  return HookError.from(
    signal.reason ?? new HookError("ABORTED", "the call was aborted"),
    "ABORTED",
  );
}

/**
 * Wait for `promise`, or reject as soon as `signal` aborts, with `reason(signal)` (the signal's
 * own reason unless a caller maps it to its error). The abort listener is removed either way.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reason: (signal: AbortSignal) => unknown = (s) => s.reason,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(reason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
