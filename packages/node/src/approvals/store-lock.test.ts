import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalError } from "./approval-error.js";
import { lockStore } from "./store-lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "a3s-store-lock-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("the embedded store's lock", () => {
  it("refuses a second opener while the first lives, then lets it in", async () => {
    const store = path.join(dir, "nested", "store");
    const release = await lockStore(store);
    expect(await readFile(`${store}.lock`, "utf8")).toBe(String(process.pid));
    const error = await lockStore(store).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ApprovalError.isReason(error, "STORE_BUSY")).toBe(true);
    expect((error as ApprovalError).path).toEqual(["store"]);
    expect((error as ApprovalError).message).toContain(`process ${process.pid}`);
    await release();
    const again = await lockStore(store);
    await again();
  });

  it("takes over a lock whose owner died (kill -9 leaves it behind)", async () => {
    const store = path.join(dir, "store");
    // A pid that existed and is gone: a child that has exited.
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    await writeFile(`${store}.lock`, child.stdout.toString());
    const release = await lockStore(store);
    expect(await readFile(`${store}.lock`, "utf8")).toBe(String(process.pid));
    await release();
  });
});
