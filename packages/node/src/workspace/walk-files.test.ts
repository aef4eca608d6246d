import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_WALK_DEPTH, type WalkBudget, walkFiles } from "./walk-files.js";
import { WorkspacePathError } from "./workspace-path-error.js";
import { WorkspaceRoot } from "./workspace-root.js";

// Every open the walk makes, counted: its cost must grow with the folders, not their depth squared.
const opens = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const open: typeof actual.open = (...args) => {
    opens.count++;
    return actual.open(...args);
  };
  return { ...actual, default: { ...actual, open }, open };
});

let base: string;
let root: WorkspaceRoot;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "a3s-walk-files-")));
  const ws = join(base, "ws");
  for (const dir of ["b/deep", "a", ".git", "node_modules/dep"]) {
    await mkdir(join(ws, dir), { recursive: true });
  }
  for (const file of [
    "z.txt",
    "a/1.txt",
    "b/2.txt",
    "b/deep/3.txt",
    ".git/HEAD",
    "node_modules/dep/x.js",
  ]) {
    await writeFile(join(ws, file), "");
  }
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "secret.txt"), "");
  await symlink(join(base, "outside"), join(ws, "link-out"));
  await symlink("a", join(ws, "link-in"));
  root = await WorkspaceRoot.open(ws);
});

afterAll(async () => {
  await root.close();
  await rm(base, { recursive: true, force: true });
});

async function all(start: string, budget: WalkBudget, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  for await (const file of walkFiles(root, start, { budget, signal })) files.push(file);
  return files;
}

describe("walkFiles", () => {
  it("yields regular files depth first in name order, leaving out symlinks, .git and node_modules", async () => {
    const budget: WalkBudget = { entries: 100 };
    expect(await all("", budget)).toEqual(["z.txt", "a/1.txt", "b/2.txt", "b/deep/3.txt"]);
    expect(budget.stopped).toBeUndefined();
    expect(await all("b", { entries: 100 })).toEqual(["b/2.txt", "b/deep/3.txt"]);
  });

  it("stops when the budget of entries runs out, and says so", async () => {
    const budget: WalkBudget = { entries: 3 };
    const files = await all("", budget);
    expect(files.length).toBeLessThan(4);
    expect(budget).toEqual({ entries: 0, stopped: true });
  });

  it("stops once the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await all("", { entries: 100 }, controller.signal)).toEqual([]);
  });

  it("refuses a start that is a symlink, even one that stays inside", async () => {
    for (const start of ["link-out", "link-in"]) {
      await expect(all(start, { entries: 100 }), start).rejects.toBeInstanceOf(WorkspacePathError);
    }
  });

  describe("a deep chain of folders", () => {
    let chain: WorkspaceRoot;
    const deep = (levels: number) => Array.from({ length: levels }, () => "a").join("/");

    beforeAll(async () => {
      const ws = join(base, "chain");
      await mkdir(join(ws, "long", deep(300)), { recursive: true });
      await writeFile(join(ws, "long", deep(40), "near.txt"), "");
      await writeFile(join(ws, "long", deep(MAX_WALK_DEPTH), "last.txt"), "");
      await writeFile(join(ws, "long", deep(MAX_WALK_DEPTH + 1), "beyond.txt"), "");
      await writeFile(join(ws, "long", deep(300), "far.txt"), "");
      await mkdir(join(ws, "short", deep(40)), { recursive: true });
      await writeFile(join(ws, "short", deep(40), "end.txt"), "");
      chain = await WorkspaceRoot.open(ws);
    });
    afterAll(() => chain.close());

    async function walk(start: string, budget: WalkBudget) {
      const files: string[] = [];
      opens.count = 0;
      for await (const file of walkFiles(chain, start, { budget })) files.push(file);
      return { files, opens: opens.count };
    }

    it("opens each folder once, relative to its parent, not once per folder on its path", async () => {
      const budget: WalkBudget = { entries: 10_000 };
      const { files, opens } = await walk("short", budget);
      expect(files).toEqual([`short/${deep(40)}/end.txt`]);
      // "short" itself, then its 40 folders: not the 1 + 2 + … + 41 opens of a walk from the root.
      expect(opens).toBe(41);
      expect(budget.tooDeep).toBeUndefined();
    });

    it(`stops ${MAX_WALK_DEPTH} folders below the start, and says so`, async () => {
      expect(MAX_WALK_DEPTH).toBeGreaterThanOrEqual(40);
      const budget: WalkBudget = { entries: 10_000 };
      const { files, opens } = await walk("long", budget);
      expect(files).toEqual([`long/${deep(40)}/near.txt`, `long/${deep(MAX_WALK_DEPTH)}/last.txt`]);
      expect(budget.tooDeep).toBe(true);
      expect(budget.stopped).toBeUndefined();
      expect(opens).toBe(MAX_WALK_DEPTH + 1);
    });
  });
});
