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

  it("can start the command in a session of its own, as an executor that kills process trees does", async () => {
    // Fields 5 and 6 of /proc/<pid>/stat: the shell's process group and session (sh builtins only).
    const ids = "read -r pid comm state ppid pgrp sid rest < /proc/$$/stat; echo $pid $pgrp $sid";
    const own = (await rawSpawn(ids, "", 10_000, { detached: true })).stdout.trim().split(" ");
    expect(own[1]).toBe(own[0]);
    expect(own[2]).toBe(own[0]);
    const shared = (await rawSpawn(ids, "")).stdout.trim().split(" ");
    expect(shared[1]).not.toBe(shared[0]);
  });

  it("runs several at once", async () => {
    const results = await rawSpawnAll(4, "cat", "same");
    expect(results.map((r) => r.stdout)).toEqual(["same", "same", "same", "same"]);
  });
});
