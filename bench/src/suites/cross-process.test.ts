import { describe, expect, it } from "vitest";
import type { SuiteContext } from "../suite.js";
import { commandSuite } from "./command.js";
import { remoteGrpcSuite, remoteWsSuite } from "./remote.js";
import { tinyProfile } from "./tiny-profile.js";

const ctx: SuiteContext = { profile: tinyProfile, log: () => undefined };

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
  });

  it("remote hooks over gRPC: server and A3sClient in two processes, against the raw echo", async () => {
    const { rows, pending } = await remoteGrpcSuite.run(ctx);
    expect(pending).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([
      "remote.grpc.1kb",
      "remote.grpc.pipelined",
      "remote.grpc.cpu",
    ]);
    const pipelined = rows[1]!;
    expect(pipelined.ours.throughput).toBeGreaterThan(0);
    expect(pipelined.baseline!.throughput).toBeGreaterThan(0);
    expect(rows[2]!.ours.median).toBeGreaterThan(0);
  });

  it("WebSocket: the raw echo is measured, our side is listed as pending with its reason", async () => {
    const { rows, pending } = await remoteWsSuite.run(ctx);
    expect(rows).toEqual([]);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.reason).toMatch(/WebSocket/);
    expect(pending[0]!.baseline!.median).toBeGreaterThan(0);
  });
});
