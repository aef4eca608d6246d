import { describe, expect, it } from "vitest";
import { childCommand, runChild, startChild } from "./child-process.js";

describe("child processes", () => {
  it("runs a child's TypeScript source through tsx when no bundle is given", () => {
    const previous = process.env.A3S_BENCH_DIST;
    delete process.env.A3S_BENCH_DIST;
    try {
      const argv = childCommand("memory-churn", ["--expose-gc"]);
      expect(argv.slice(1, 5)).toEqual([
        "--expose-gc",
        "--conditions=@a3s-lab/source",
        "--import",
        "tsx",
      ]);
      expect(argv.at(-1)).toMatch(/src\/children\/memory-churn\.ts$/);
    } finally {
      if (previous !== undefined) process.env.A3S_BENCH_DIST = previous;
    }
  });

  it("reports a child that rejects its arguments, with the child's own message", async () => {
    await expect(
      runChild("memory-churn", { nodeFlags: ["--expose-gc"], args: ["--fires", "lots"] }),
    ).rejects.toMatchObject({
      code: "CHILD_FAILED",
      message: expect.stringContaining(
        '--fires: expected a whole number from 1 to 10000000, got "lots"',
      ),
    });
    await expect(
      startChild("grpc-echo-client", { args: ["--port", "99999"] }),
    ).rejects.toMatchObject({
      code: "CHILD_FAILED",
      message: expect.stringMatching(/exited with 1 before it was ready.*--port/s),
    });
  });

  it("runs the memory row's child to the end and reads its report", async () => {
    const report = await runChild("memory-churn", {
      nodeFlags: ["--expose-gc"],
      args: ["--fires", "3000"],
    });
    expect(report).toMatchObject({
      fires: 3000,
      registered: expect.any(Number),
      audits: expect.any(Number),
    });
    expect(report.before).toBeGreaterThan(0);
    expect(report.after).toBeGreaterThan(0);
    expect(report.registered as number).toBeGreaterThan(6);
  });
});
