import type { Unsubscribe } from "../base/emitter.js";
import { describeValue, HookError } from "../base/hook-error.js";
import {
  type AuditEvent,
  type AuditEventType,
  type AuditSource,
  auditTypeFilter,
  onAudit,
} from "./audit.js";

/** {@link AuditTrail}'s options. */
export interface AuditTrailOptions {
  /** How many records the trail keeps; older ones are dropped. An integer 1..100 000; default 500. */
  limit?: number;
  /** Keep only records of these types. Default: every type. */
  types?: readonly AuditEventType[];
}

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 100_000;

function invalid(path: string[], message: string): HookError {
  return new HookError("INVALID_CONFIG", `${path.join(".")}: ${message}`, { path });
}

/** Throws unless `options` is undefined or a plain object with only the `known` keys. */
export function checkOptions(options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalid(["options"], `expected an object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    // A typo (`limt`) would otherwise be ignored silently.
    if (!known.includes(key)) {
      throw invalid(["options", key], `unknown option; expected one of ${known.join(", ")}`);
    }
  }
}

/**
 * Report an error thrown by a listener without letting it reach the audit source (where it
 * would break the engine's firing or the client's connection): the page's error reporting
 * when it has one (`reportError` shows in the console and reaches `window.onerror`), else
 * `console.error`.
 */
export function reportListenerError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  try {
    if (typeof report === "function") report(error);
    else console.error(error);
  } catch {
    // Nowhere left to report to; the trail must go on.
  }
}

function checkLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalid(
      ["options", "limit"],
      `expected an integer from 1 to ${MAX_LIMIT}, got ${describeValue(limit)}`,
    );
  }
  return limit;
}

type Listener = (record: AuditEvent) => void;

/**
 * The last audit records of a `HookEngine` or an `A3sClient`, kept in memory for a page to
 * show, search and download: a bounded ring (the oldest records are dropped), live
 * subscriptions for a view, and JSON Lines for a download link.
 *
 * An `A3sClient` reports its own hooks' records at the level `setHookAuditLevel` chose (off by
 * default); an engine reports every record at its `auditLevel`.
 *
 * @example
 * ```ts
 * const client = new A3sClient({ token });
 * client.setHookAuditLevel("info");
 * using trail = new AuditTrail(client, { limit: 200 });
 * trail.subscribe((record) => list.append(formatAuditRecord(record)));
 * // later: every record kept so far, oldest first, as a file
 * const file = new Blob([trail.toJSONL()], { type: "application/x-ndjson" });
 * ```
 */
export class AuditTrail implements Disposable {
  /** How many records the trail keeps at most. */
  readonly limit: number;
  readonly #types: ReadonlySet<string> | undefined;
  /** The ring: grows by push until full, then `#start` marks the oldest slot. */
  #ring: AuditEvent[] = [];
  #start = 0;
  #dropped = 0;
  /** The ordered copy `records` handed out, until the next change. */
  #snapshot: readonly AuditEvent[] | undefined;
  /** Replaced, never changed in place: a dispatch walks the array it started with. */
  #listeners: readonly Listener[] = [];
  #stop: (() => void) | undefined;

  constructor(source: AuditSource, options?: AuditTrailOptions) {
    checkOptions(options, ["limit", "types"]);
    this.limit = checkLimit(options?.limit);
    this.#types = auditTypeFilter(options?.types);
    this.#stop = onAudit(source, (record) => this.#add(record));
  }

  /** The records kept, oldest first: at most `limit`. A frozen copy; the trail goes on filling. */
  get records(): readonly AuditEvent[] {
    if (this.#snapshot === undefined) {
      const ring = this.#ring;
      const ordered =
        this.#start === 0
          ? ring.slice()
          : [...ring.slice(this.#start), ...ring.slice(0, this.#start)];
      this.#snapshot = Object.freeze(ordered);
    }
    return this.#snapshot;
  }

  /** How many records were dropped to make room since the trail started (or was cleared). */
  get dropped(): number {
    return this.#dropped;
  }

  /** False once `close()` was called: the trail no longer hears its source. */
  get listening(): boolean {
    return this.#stop !== undefined;
  }

  /**
   * Call `listener` with each record the trail keeps from now on (after it is kept). Returns
   * the way to stop (also `using`-disposable, and tied to `options.signal` when given). A
   * listener that throws is reported (`reportError`, else `console.error`) and the others
   * still run.
   *
   * @example
   * ```ts
   * const stop = trail.subscribe((record) => console.log(formatAuditRecord(record)));
   * stop();
   * ```
   */
  subscribe(
    listener: (record: AuditEvent) => void,
    options?: { signal?: AbortSignal },
  ): Unsubscribe {
    if (typeof listener !== "function") {
      throw invalid(["listener"], `expected a function, got ${describeValue(listener)}`);
    }
    const signal = options?.signal;
    // One entry per call, so the same function subscribed twice is also stopped one at a time.
    const entry: Listener = (record) => listener(record);
    let subscribed = !signal?.aborted;
    const stop = () => {
      if (!subscribed) return;
      subscribed = false;
      this.#listeners = this.#listeners.filter((l) => l !== entry);
      signal?.removeEventListener("abort", stop);
    };
    if (subscribed) {
      this.#listeners = [...this.#listeners, entry];
      signal?.addEventListener("abort", stop, { once: true });
    }
    return Object.assign(stop, { [Symbol.dispose]: stop });
  }

  /**
   * The records kept, oldest first, one JSON object per line (JSON Lines), ending with a
   * newline; empty when there are none.
   *
   * @example
   * ```ts
   * link.href = URL.createObjectURL(new Blob([trail.toJSONL()], { type: "application/x-ndjson" }));
   * link.download = "hooks-audit.jsonl";
   * ```
   */
  toJSONL(): string {
    let out = "";
    for (const record of this.records) out += `${JSON.stringify(record)}\n`;
    return out;
  }

  /** Forget every record kept so far, and reset `dropped`. The trail keeps listening. */
  clear(): void {
    this.#ring = [];
    this.#start = 0;
    this.#dropped = 0;
    this.#snapshot = undefined;
  }

  /** Stop listening to the source. The records stay readable. Idempotent. */
  close(): void {
    const stop = this.#stop;
    this.#stop = undefined;
    stop?.();
  }

  /** `using trail = new AuditTrail(source)` closes it at the end of the scope. */
  [Symbol.dispose](): void {
    this.close();
  }

  #add(record: AuditEvent): void {
    if (this.#types !== undefined && !this.#types.has(record?.type)) return;
    const ring = this.#ring;
    if (ring.length < this.limit) {
      ring.push(record);
    } else {
      ring[this.#start] = record;
      this.#start = this.#start + 1 === this.limit ? 0 : this.#start + 1;
      this.#dropped++;
    }
    this.#snapshot = undefined;
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(record);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }
}
