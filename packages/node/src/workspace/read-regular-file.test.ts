import { mkdir, mkdtemp, open, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openedInside, readRegularFile } from "./read-regular-file.js";

const SECRET = "OUTSIDE SECRET";
let base: string;
let project: string;
let checked: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "a3s-read-regular-")));
  project = join(base, "project");
  await mkdir(join(project, "sub"), { recursive: true });
  await writeFile(join(project, "sub", "f.txt"), "inside");
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "f.txt"), SECRET);
  // The path a caller checked (real, inside the project) before opening it.
  checked = join(project, "sub", "f.txt");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** What an attacker does between the caller's check and its open. */
async function swapParentForSymlinkOut(): Promise<void> {
  await rename(join(project, "sub"), join(project, "sub-old"));
  await symlink(join(base, "outside"), join(project, "sub"));
}

describe("readRegularFile with inside", () => {
  it("reads a file that is inside", async () => {
    expect(await readRegularFile(checked, 100, { noFollow: true, inside: project })).toBe("inside");
  });

  it("refuses a file reached through a parent swapped for a symlink after the check", async () => {
    await swapParentForSymlinkOut();
    const read = await readRegularFile(checked, 100, { noFollow: true, inside: project });
    expect(read).toEqual({ problem: "leads outside the allowed directory" });
  });

  it("without inside, still follows a swapped parent (noFollow guards the last component only)", async () => {
    await swapParentForSymlinkOut();
    expect(await readRegularFile(checked, 100, { noFollow: true })).toBe(SECRET);
  });
});

describe("openedInside without /proc/self/fd", () => {
  it("accepts a descriptor that is the checked file, refuses one that is not", async () => {
    const handle = await open(checked, "r");
    try {
      expect(await openedInside(handle, checked, project, "darwin")).toBe(true);
      await swapParentForSymlinkOut();
      // The name now leads elsewhere: the descriptor is no longer the file the name names.
      expect(await openedInside(handle, checked, project, "darwin")).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it("refuses a descriptor opened through a swapped parent when the name leads back inside", async () => {
    await swapParentForSymlinkOut();
    const handle = await open(checked, "r");
    try {
      // The attacker swaps back before the comparison: the name leads inside again.
      await rm(join(project, "sub"));
      await rename(join(project, "sub-old"), join(project, "sub"));
      expect(await openedInside(handle, checked, project, "darwin")).toBe(false);
      expect(await openedInside(handle, checked, project, "linux")).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it("refuses a checked path outside the directory", async () => {
    const outside = join(base, "outside", "f.txt");
    const handle = await open(outside, "r");
    try {
      expect(await openedInside(handle, outside, project, "darwin")).toBe(false);
      expect(await openedInside(handle, outside, project, "linux")).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
