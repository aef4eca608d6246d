import { BenchError } from "../bench-error.js";
import { type ChildHandle, type ChildName, startChild } from "./child-process.js";

/**
 * The agent's end of a raw echo baseline: it sends bytes to a peer in another process and
 * waits for the same bytes back, as the agent sends an event to a hook client and waits for
 * the answer.
 */
export interface EchoHost {
  /** The port the host listens on (127.0.0.1 only). */
  readonly port: number;
  /** Resolves once a peer has connected and can echo. */
  waitForPeer(timeoutMs?: number): Promise<void>;
  /** Send one message and resolve with its echo. Echoes come back in order. */
  roundTrip(bytes: Uint8Array): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Replies in arrival order, matched to requests first in, first out. */
export class ReplyQueue {
  readonly #waiting: { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }[] = [];

  push(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  deliver(bytes: Uint8Array): void {
    const next = this.#waiting.shift();
    if (next) next.resolve(bytes);
  }

  failAll(error: Error): void {
    for (const w of this.#waiting.splice(0)) w.reject(error);
  }

  get size(): number {
    return this.#waiting.length;
  }
}

/** A promise that settles with the first peer, or fails after `timeoutMs`. */
export function peerGate(what: string): {
  promise: (timeoutMs?: number) => Promise<void>;
  open: () => void;
} {
  let open!: () => void;
  const ready = new Promise<void>((resolve) => (open = resolve));
  return {
    open: () => open(),
    promise: (timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new BenchError("TIMEOUT", `${what}: no peer connected within ${timeoutMs} ms`)),
          timeoutMs,
        );
        void ready.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/** What a pipelined run measured, on the agent's side. */
export interface LoadResult {
  /** Per-message round trips, in nanoseconds. */
  latencies: number[];
  /** Messages per second over the whole run. */
  throughput: number;
  /** CPU time of this (the agent's) process per message, in nanoseconds. */
  cpuPerMessage: number;
}

/**
 * Keep `inFlight` messages outstanding until `total` have come back, timing each round trip
 * and the CPU this process spent. `send` is one round trip: a raw echo, or our hook firing.
 */
export async function pipelined(
  send: () => Promise<unknown>,
  total: number,
  inFlight: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let started = 0;
  const cpuStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  const lane = async () => {
    while (started < total) {
      started++;
      const t = process.hrtime.bigint();
      await send();
      latencies.push(Number(process.hrtime.bigint() - t));
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
  const wallNs = Number(process.hrtime.bigint() - wallStart);
  const cpu = process.cpuUsage(cpuStart);
  return {
    latencies,
    throughput: (total * 1e9) / wallNs,
    cpuPerMessage: ((cpu.user + cpu.system) * 1000) / total,
  };
}

/** A raw echo host with its peer process, and how to stop both. */
export interface EchoPair {
  host: EchoHost;
  close(): Promise<void>;
}

/** Start a raw echo host and its peer in another process; both stop on `close()`. */
export async function startEcho(
  start: () => Promise<EchoHost>,
  peer: ChildName,
): Promise<EchoPair> {
  const host = await start();
  let child: ChildHandle | undefined;
  try {
    child = await startChild(peer, { args: ["--port", String(host.port)] });
    await host.waitForPeer();
    const peerChild = child;
    const close = async () => {
      await peerChild.stop();
      await host.close();
    };
    return { host, close };
  } catch (error) {
    await child?.stop();
    await host.close();
    throw error;
  }
}
