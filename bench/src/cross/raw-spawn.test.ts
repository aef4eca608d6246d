import { describe, expect, it } from "vitest";
import { rawSpawn, rawSpawnAll } from "./raw-spawn.js";

describe("rawSpawn", () => {
  it("pipes stdin through the shell command and reports stdout, stderr and the exit code", async () => {
    const result = await rawSpawn("cat; echo oops >&2; exit 3", "hello");
    expect(result).toEqual({ code: 3, stdout: "hello", stderr: "oops\n" });
  });

  it("survives a command that never reads a huge stdin", async () => {
    const result = await rawSpawn("exit 0", "x".repeat(8 * 1024 * 1024));
    expect(result.code).toBe(0);
  });

  it("kills a command that does not finish in time, with a typed error", async () => {
    await expect(rawSpawn("sleep 30", "", 50)).rejects.toMatchObject({
      code: "TIMEOUT",
      message: expect.stringContaining('"sleep 30" did not exit within 50 ms'),
    });
  });

  it("runs several at once", async () => {
    const results = await rawSpawnAll(4, "cat", "same");
    expect(results.map((r) => r.stdout)).toEqual(["same", "same", "same", "same"]);
  });
});
