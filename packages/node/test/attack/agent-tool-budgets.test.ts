/**
 * An agent hook's model asks for whatever it likes; a project can be large. One Grep reads at
 * most MAX_GREP_CHARS (then says it stopped), one walk visits at most MAX_WALK_ENTRIES
 * entries, and a file over MAX_READ_FILE_BYTES is skipped unread. Files live in a temporary
 * folder and are removed.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_GREP_CHARS,
  MAX_READ_FILE_BYTES,
  MAX_WALK_ENTRIES,
  runAgentTool,
} from "../../src/handlers/model/agent-tools.js";

let project: string;
const signal = new AbortController().signal;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "a3s-agent-budgets-"));
  // Just under the per-file limit each, enough of them to pass the Grep budget.
  const file = `${"a".repeat(1023)}\n`.repeat(Math.floor(MAX_READ_FILE_BYTES / 1024) - 1);
  const count = Math.ceil(MAX_GREP_CHARS / file.length) + 2;
  await mkdir(join(project, "big"));
  for (let i = 0; i < count; i++) {
    await writeFile(join(project, "big", `f${String(i).padStart(3, "0")}.txt`), file);
  }
  await writeFile(join(project, "big", "zz-last.txt"), "needle\n");
  await mkdir(join(project, "many"));
  for (let i = 0; i < MAX_WALK_ENTRIES + 10; i++) {
    await writeFile(join(project, "many", `e${i}`), "");
  }
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("an agent verifier's tool budgets", () => {
  it("one Grep stops after its read budget, and says so", async () => {
    const result = await runAgentTool(project, "Grep", '{"pattern":"needle","path":"big"}', signal);
    expect(result).toBe(`no lines match\n(stopped after reading ${MAX_GREP_CHARS} characters)`);
  });

  it("one walk stops after its entry budget, and says so", async () => {
    const result = await runAgentTool(project, "Glob", '{"pattern":"*.none"}', signal);
    expect(result).toContain(`(stopped after ${MAX_WALK_ENTRIES} directory entries)`);
  });
});
