import { randomBytes } from "node:crypto";
import { HookEngine, type PreToolUseEvent } from "@a3s-lab/hooks-core";
import { createHookServer, loadHooksProto } from "@a3s-lab/hooks-node";
import { BenchError } from "../bench-error.js";
import { alternate } from "../cross/alternate.js";
import { type ChildHandle, type ChildName, startChild } from "../cross/child-process.js";
import { type EchoHost, type LoadResult, pipelined } from "../cross/echo-host.js";
import { startRawGrpcHost } from "../cross/raw-grpc.js";
import { startRawWsHost } from "../cross/raw-ws.js";
import { eventOfSize } from "../payload.js";
import { goals, makeRow, type Side, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

/** Lanes firing at once in the pipelined rows: 16 sessions, each waiting for its answer. */
const SESSIONS = 16;

async function startEcho(start: () => Promise<EchoHost>, peer: ChildName) {
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

async function checkedRoundTrip(host: EchoHost, bytes: Uint8Array): Promise<void> {
  const echo = await host.roundTrip(bytes);
  if (echo.byteLength !== bytes.byteLength) {
    throw new BenchError(
      "TASK_FAILED",
      `echo: sent ${bytes.byteLength} bytes, got ${echo.byteLength} back`,
    );
  }
}

/** Our agent side: an engine, the hook server on 127.0.0.1 with a token, a client process. */
async function startOurs() {
  const engine = new HookEngine();
  const token = randomBytes(24).toString("base64url");
  const server = await createHookServer({ engine, host: "127.0.0.1", port: 0, token });
  let child: ChildHandle | undefined;
  try {
    const registered = new Promise<void>((resolve) => {
      const off = engine.on("registered", () => {
        off();
        resolve();
      });
    });
    child = await startChild("hook-client", {
      env: { A3S_ADDRESS: server.address, A3S_TOKEN: token },
    });
    await registered;
    const clientChild = child;
    const close = async () => {
      await clientChild.stop();
      await server.close();
    };
    return { engine, close };
  } catch (error) {
    await child?.stop();
    await server.close();
    throw error;
  }
}

/** A fresh firing of the 1 KB event: the server pairs answers with firings by event id. */
function firing(template: PreToolUseEvent, n: number, session: string): PreToolUseEvent {
  return { ...template, eventId: `bench-${n}`, sessionId: session };
}

/** Pipelined runs of ours and the baseline in alternating blocks, merged. */
async function pipelinedPair(
  ours: () => Promise<unknown>,
  raw: () => Promise<unknown>,
  total: number,
  blocks = 4,
): Promise<{ ours: LoadResult; raw: LoadResult }> {
  const parts: { ours: LoadResult[]; raw: LoadResult[] } = { ours: [], raw: [] };
  const each = Math.max(SESSIONS, Math.ceil(total / blocks));
  for (let b = 0; b < blocks; b++) {
    // Swap who goes first every block.
    for (const name of b % 2 === 0 ? (["raw", "ours"] as const) : (["ours", "raw"] as const)) {
      parts[name].push(await pipelined(name === "ours" ? ours : raw, each, SESSIONS));
    }
  }
  const merge = (list: LoadResult[]): LoadResult => ({
    latencies: list.flatMap((l) => l.latencies),
    // Messages over the summed wall time of the blocks (each block ran alone).
    throughput: (list.length * each) / list.reduce((s, l) => s + each / l.throughput, 0),
    cpuPerMessage: list.reduce((s, l) => s + l.cpuPerMessage, 0) / list.length,
  });
  return { ours: merge(parts.ours), raw: merge(parts.raw) };
}

function loadSide(label: string, load: LoadResult): Side {
  return {
    ...side(label, summarize(load.latencies)),
    throughput: load.throughput,
    cpu: load.cpuPerMessage,
  };
}

/** Remote hooks over gRPC, against a raw grpc-js bidi echo of the same bytes. */
export const remoteGrpcSuite: Suite = {
  id: "remote-grpc",
  title: "remote hooks over gRPC",
  async run({ profile }) {
    const template = eventOfSize(1024);
    // The bytes our server sends for this event: a HookEvent message carrying the JSON.
    const serialize = loadHooksProto().HookService.HookStream?.responseSerialize;
    if (!serialize)
      throw new BenchError("TASK_FAILED", "hooks.proto: HookService.HookStream not found");
    const bytes = new Uint8Array(
      serialize({
        hookId: "bench-hook-0001",
        eventType: template.eventType,
        sessionId: template.sessionId,
        timestamp: template.timestamp,
        payload: Buffer.from(JSON.stringify(template)),
        eventId: template.eventId,
        deadlineMs: Date.now() + 5000,
      }),
    );
    const raw = await startEcho(startRawGrpcHost, "grpc-echo-client");
    try {
      const ours = await startOurs();
      try {
        await checkedRoundTrip(raw.host, bytes);
        let n = 0;
        const probe = await ours.engine.fire(firing(template, n++, "probe"));
        if (probe.outcomes.length !== 1 || probe.outcomes[0]!.status !== "ok") {
          throw new BenchError("TASK_FAILED", `remote hook: ${JSON.stringify(probe.outcomes)}`);
        }
        const sequential = await alternate(
          {
            ours: () => ours.engine.fire(firing(template, n++, "sequential")),
            raw: () => raw.host.roundTrip(bytes),
          },
          profile.roundTrips,
        );
        let lane = 0;
        const load = await pipelinedPair(
          () => ours.engine.fire(firing(template, n++, `session-${lane++ % SESSIONS}`)),
          () => raw.host.roundTrip(bytes),
          profile.pipelined,
        );
        const rawLoad = loadSide(`raw grpc-js echo, ${SESSIONS} in flight`, load.raw);
        const oursLoad = loadSide(`server + client, ${SESSIONS} sessions`, load.ours);
        const note = `One PreToolUse hook in an A3sClient in another process; the echo sends the same ${bytes.byteLength.toLocaleString("en-US")}-byte HookEvent message both ways.`;
        return {
          rows: [
            makeRow({
              id: "remote.grpc.1kb",
              what: "remote hook round trip over gRPC, 1 KB event",
              ours: side("`fire()` → server → `A3sClient`", summarize(sequential.ours!)),
              baseline: side("raw grpc-js bidi echo, same bytes", summarize(sequential.raw!)),
              goal: goals.ratioAndP99(1.3, 2e6, "≤ 1.3×, p99 < 2 ms"),
              smoke: profile.smoke,
              note,
            }),
            makeRow({
              id: "remote.grpc.pipelined",
              what: `remote hooks, pipelined, ${SESSIONS} sessions`,
              ours: oursLoad,
              baseline: rawLoad,
              goal: goals.throughputAtLeast(10_000, "≥ 10,000 events/s"),
              smoke: profile.smoke,
              note: "Median and p99 are per-event latencies under load; the rate is events per second over the run.",
            }),
            makeRow({
              id: "remote.grpc.cpu",
              what: "agent CPU per remote event",
              ours: {
                label: "hook server, agent process",
                unit: "ns",
                median: load.ours.cpuPerMessage,
              },
              baseline: {
                label: "raw grpc-js echo, agent process",
                unit: "ns",
                median: load.raw.cpuPerMessage,
              },
              goal: goals.cpuAtMost(50_000, "≤ 50 µs"),
              smoke: profile.smoke,
              note: "CPU time (user + system) of the agent process over the pipelined run, per event; the client's CPU is in its own process and not counted.",
            }),
          ],
          pending: [],
        };
      } finally {
        await ours.close();
      }
    } finally {
      await raw.close();
    }
  },
};

/** Remote hooks over WebSocket, against a raw `ws` echo. */
export const remoteWsSuite: Suite = {
  id: "remote-ws",
  title: "remote hooks over WebSocket",
  async run({ profile }) {
    const bytes = new TextEncoder().encode(JSON.stringify(eventOfSize(1024)));
    const raw = await startEcho(startRawWsHost, "ws-echo-client");
    try {
      await checkedRoundTrip(raw.host, bytes);
      const sequential = await alternate(
        { echo: () => raw.host.roundTrip(bytes) },
        profile.roundTrips,
      );
      return {
        rows: [],
        pending: [
          {
            id: "remote.ws.1kb",
            what: "remote hook over WebSocket",
            goal: "≤ 1.3×",
            reason:
              "the hook server has no WebSocket endpoint yet, and the browser transport comes with issue 6.",
            baseline: side("raw `ws` echo, same bytes", summarize(sequential.echo!)),
          },
        ],
      };
    } finally {
      await raw.close();
    }
  },
};
