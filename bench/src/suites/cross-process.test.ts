import { describe, expect, it } from "vitest";
import { goals, type Row } from "../row.js";
import type { SuiteContext } from "../suite.js";
import { commandSuite } from "./command.js";
import { remoteGrpcSuite } from "./remote-grpc.js";
import { remoteWsSuite } from "./remote-ws.js";
import { tinyProfile } from "./tiny-profile.js";

const ctx: SuiteContext = { profile: tinyProfile, log: () => undefined };
// Verdicts judged, as in a full run: a goal must be decided on what the suite really returns.
const judged: SuiteContext = { profile: { ...tinyProfile, smoke: false }, log: () => undefined };

describe("cross-process suites (tiny runs, real processes and sockets)", () => {
  it("command hooks: ours through the engine and raw spawns of the same script", async () => {
    const { rows } = await commandSuite.run(ctx);
    expect(rows.map((r) => r.id)).toEqual(["command.1kb", "command.1kb.detached", "command.8x"]);
    for (const row of rows) {
      // Alternated call by call: both sides have the same number of samples.
      expect(row.ours.n).toBe(tinyProfile.spawns);
      expect(row.baseline!.n).toBe(tinyProfile.spawns);
      expect(row.baseline!.median).toBeGreaterThan(0);
    }
    // Real spawns under bash, the default shell now: slow on a busy 2-core machine.
  }, 60_000);

  it("remote hooks over gRPC: server and A3sClient in two processes, against the raw echo", async () => {
    const { rows, pending } = await remoteGrpcSuite.run(judged);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([
      "remote.grpc.1kb",
      "remote.grpc.pipelined",
      "remote.grpc.cpu",
      "remote.grpc.cpu.100kb",
      "remote.grpc.cpu.1mb",
    ]);
    const [roundTrip, pipelined, cpu, ...large] = rows as [Row, Row, Row, Row, Row];
    expect(roundTrip.ours.n).toBe(tinyProfile.roundTrips);
    expect(roundTrip.baseline!.n).toBe(tinyProfile.roundTrips);
    expect(pipelined.ours.throughput).toBeGreaterThan(0);
    expect(pipelined.baseline!.throughput).toBeGreaterThan(0);
    // The goals, with limits nothing can miss, on the rows' real sides: a goal reading a field
    // the suite forgot to fill in (the CPU row once lacked `cpu`) is missed whatever the numbers.
    expect(goals.throughputAtLeast(0, "").test!(pipelined.ours, pipelined.baseline)).toBe(true);
    expect(goals.cpuAtMost(Number.POSITIVE_INFINITY, "").test!(cpu.ours, cpu.baseline)).toBe(true);
    expect(cpu.ours.cpu).toBeGreaterThan(0);
    expect(cpu.ours.cpu).toBe(cpu.ours.median);
    // And the verdicts the run printed are the goals' own, decided on those numbers.
    expect(cpu.verdict).toBe(cpu.ours.cpu! <= 1.5 * cpu.baseline!.cpu! ? "met" : "missed");
    expect(pipelined.verdict).toBe(pipelined.ours.throughput! >= 10_000 ? "met" : "missed");
    for (const row of large) {
      expect(row.ours.cpu).toBeGreaterThan(0);
      expect(row.baseline!.cpu).toBeGreaterThan(0);
      expect(row.verdict).toBe(row.ours.cpu! <= 1.5 * row.baseline!.cpu! ? "met" : "missed");
    }
  }, 120_000);

  it("remote hooks over WebSocket: A3sClient on ws in another process, against the raw ws echo", async () => {
    const { rows, pending } = await remoteWsSuite.run(judged);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(["remote.ws.1kb"]);
    const row = rows[0]!;
    // Alternated call by call: both sides have the same number of samples.
    expect(row.ours.n).toBe(tinyProfile.roundTrips);
    expect(row.baseline!.n).toBe(tinyProfile.roundTrips);
    expect(row.baseline!.median).toBeGreaterThan(0);
    expect(row.ratio).toBe(row.ours.median / row.baseline!.median);
    expect(row.verdict).toBe(row.ratio! <= 1.3 ? "met" : "missed");
  });
});
