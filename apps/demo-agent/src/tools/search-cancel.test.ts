import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";

// Every folder a walk lists, counted: a cancelled search must stop listing.
const listed = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const opendir: typeof actual.opendir = (...args) => {
    listed.count++;
    return actual.opendir(...args);
  };
  return { ...actual, default: { ...actual, opendir }, opendir };
});

const FOLDERS = 100;
let base: string;
let workdir: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "search-cancel-")));
  workdir = path.join(base, "ws");
  for (let i = 0; i < FOLDERS; i++) {
    await mkdir(path.join(workdir, `f${i}`), { recursive: true });
    await writeFile(path.join(workdir, `f${i}`, "a.txt"), "text\n");
  }
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe("a cancelled Glob or Grep stops walking", () => {
  it.each([
    ["Glob", () => globTool.run({ pattern: "**/*.none" }, ctx())],
    ["Grep", () => grepTool.run({ pattern: "text", glob: "**/*.none" }, ctx())],
  ])("%s answers ABORTED without listing the tree", async (_, run) => {
    listed.count = 0;
    await expect(run()).rejects.toMatchObject({ code: "ABORTED" });
    // At most the folder searched: not its hundred subfolders.
    expect(listed.count).toBeLessThanOrEqual(1);
  });

  it("a Glob cancelled while it walks stops there", async () => {
    const controller = new AbortController();
    listed.count = 0;
    const answer = globTool.run({ pattern: "**/*.none" }, { workdir, signal: controller.signal });
    controller.abort();
    await expect(answer).rejects.toMatchObject({ code: "ABORTED" });
    expect(listed.count).toBeLessThan(FOLDERS);
  });
});

function ctx() {
  const controller = new AbortController();
  controller.abort();
  return { workdir, signal: controller.signal };
}
