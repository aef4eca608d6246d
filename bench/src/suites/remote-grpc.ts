import type { PreToolUseEvent } from "@a3s-lab/hooks-core";
import { loadHooksProto } from "@a3s-lab/hooks-node";
import { BenchError } from "../bench-error.js";
import { alternate } from "../cross/alternate.js";
import { type LoadResult, pipelined, startEcho } from "../cross/echo-host.js";
import { startRawGrpcHost } from "../cross/raw-grpc.js";
import { eventOfSize } from "../payload.js";
import { goals, makeRow, type Row, type Side, side } from "../row.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";
import { checkedRoundTrip, firing, probe, startOurs } from "./remote-peers.js";

/** Lanes firing at once in the pipelined rows: 16 sessions, each waiting for its answer. */
const SESSIONS = 16;

/**
 * Lanes in the large-event rows: 4 firings of 1 MB in flight stay under the hook server's
 * default 8 MiB a client may have waiting before it counts as not reading.
 */
const LARGE_LANES = 4;

/** The large events' sizes, and how many fewer of them each side sends than of 1 KB ones. */
const LARGE_EVENTS = [
  { id: "100kb", label: "100 KB", bytes: 100 * 1024, fewer: 100 },
  { id: "1mb", label: "1 MB", bytes: 1024 * 1024, fewer: 500 },
] as const;

/** Pipelined runs of ours and the baseline in alternating blocks, merged. */
async function pipelinedPair(
  ours: () => Promise<unknown>,
  raw: () => Promise<unknown>,
  total: number,
  lanes = SESSIONS,
): Promise<{ ours: LoadResult; raw: LoadResult }> {
  const blocks = 4;
  const parts: { ours: LoadResult[]; raw: LoadResult[] } = { ours: [], raw: [] };
  const each = Math.max(lanes, Math.ceil(total / blocks));
  for (let b = 0; b < blocks; b++) {
    // Swap who goes first every block.
    for (const name of b % 2 === 0 ? (["raw", "ours"] as const) : (["ours", "raw"] as const)) {
      parts[name].push(await pipelined(name === "ours" ? ours : raw, each, lanes));
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

/** The agent's CPU per event, as a row's side (the goal reads `cpu`; the median shows it). */
function cpuSide(label: string, load: LoadResult): Side {
  return { label, unit: "ns", median: load.cpuPerMessage, cpu: load.cpuPerMessage };
}

/** The HookEvent message our server sends for `event`, as protobuf bytes. */
function hookEventBytes(event: PreToolUseEvent): Uint8Array {
  // The bytes our server sends for this event: a HookEvent message carrying the JSON.
  const serialize = loadHooksProto().HookService.HookStream?.responseSerialize;
  if (!serialize)
    throw new BenchError("TASK_FAILED", "hooks.proto: HookService.HookStream not found");
  return new Uint8Array(
    serialize({
      hookId: "bench-hook-0001",
      eventType: event.eventType,
      sessionId: event.sessionId,
      timestamp: event.timestamp,
      payload: Buffer.from(JSON.stringify(event)),
      eventId: event.eventId,
      deadlineMs: Date.now() + 5000,
    }),
  );
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
    const bytes = hookEventBytes(template);
    const raw = await startEcho(startRawGrpcHost, "grpc-echo-client");
    try {
      const ours = await startOurs("grpc");
      try {
        await checkedRoundTrip(raw.host, bytes);
        await probe(ours.engine, template);
        let n = 1;
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
        const large: Row[] = [];
        for (const size of LARGE_EVENTS) {
          const event = eventOfSize(size.bytes);
          const eventBytes = hookEventBytes(event);
          await checkedRoundTrip(raw.host, eventBytes);
          const pair = await pipelinedPair(
            () => ours.engine.fire(firing(event, n++, `session-${lane++ % LARGE_LANES}`)),
            () => raw.host.roundTrip(eventBytes),
            Math.max(2 * LARGE_LANES, Math.round(profile.pipelined / size.fewer)),
            LARGE_LANES,
          );
          large.push(
            makeRow({
              id: `remote.grpc.cpu.${size.id}`,
              what: `agent CPU per remote event, ${size.label}`,
              ours: cpuSide(`hook server, agent process, ${LARGE_LANES} in flight`, pair.ours),
              baseline: cpuSide(
                `raw grpc-js echo of the same ${eventBytes.byteLength.toLocaleString("en-US")} bytes`,
                pair.raw,
              ),
              goal: goals.ratioAtMost(1.5, "≤ 1.5× the echo's"),
              smoke: profile.smoke,
              note: `As the 1 KB CPU row, with a ${size.label} event (a Write of a large file), ${LARGE_LANES} firings in flight. The echo sends bytes made once and reads the same bytes back; the agent turns each event into JSON, which no echo does, and reads a short answer.`,
            }),
          );
        }
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
              // The goal reads `cpu`; the median shows the same number in the table.
              ours: cpuSide("hook server, agent process", load.ours),
              baseline: cpuSide("raw grpc-js echo, agent process", load.raw),
              // The echo's CPU, measured in the same run, not a fixed number: machines differ.
              goal: goals.ratioAtMost(1.5, "≤ 1.5× the echo's"),
              smoke: profile.smoke,
              note: "CPU time (user + system) of the agent process over the pipelined run, per event; the client's CPU is in its own process and not counted.",
            }),
            ...large,
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
