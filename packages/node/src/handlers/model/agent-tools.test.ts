import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_WALK_DEPTH } from "../../workspace/walk-files.js";
import {
  MAX_LISTED,
  MAX_READ_FILE_BYTES,
  MAX_TOOL_RESULT_CHARS,
  runAgentTool,
} from "./agent-tools.js";

let base: string;
let project: string;
const signal = new AbortController().signal;
const tool = (name: string, args: unknown) =>
  runAgentTool(project, name, typeof args === "string" ? args : JSON.stringify(args), signal);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "a3s-agent-tools-"));
  project = join(base, "project");
  await mkdir(join(project, "src", "deep"), { recursive: true });
  await mkdir(join(project, "node_modules", "dep"), { recursive: true });
  await writeFile(join(base, "secret.txt"), "TOP SECRET\n");
  await writeFile(join(project, "src", "a.ts"), "export const a = 1;\n// TODO: fix\n");
  await writeFile(join(project, "src", "deep", "b.ts"), "const b = 2; // TODO later\n");
  await writeFile(join(project, "README.md"), "line one\nline two\nline three\n");
  await writeFile(join(project, "node_modules", "dep", "x.ts"), "// TODO in a dependency\n");
  await writeFile(join(project, "big.txt"), "x".repeat(MAX_READ_FILE_BYTES + 1));
  await writeFile(join(project, "long.txt"), `${"y".repeat(100)}\n`.repeat(1000));
  await symlink(join(base, "secret.txt"), join(project, "link-out"));
  await symlink(base, join(project, "dir-out"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("Read", () => {
  it("returns numbered lines, from offset, at most limit", async () => {
    expect(await tool("Read", { file_path: "README.md" })).toBe(
      "1\tline one\n2\tline two\n3\tline three\n4\t",
    );
    expect(await tool("Read", { file_path: "README.md", offset: 2, limit: 1 })).toBe("2\tline two");
  });

  it.each([
    ["../secret.txt", "outside the project directory"],
    [join("/", "etc", "passwd"), "outside the project directory"],
    ["link-out", "leads outside the project directory"],
    ["dir-out/secret.txt", "leads outside the project directory"],
    ["src", "not a regular file"],
    ["missing.txt", "ENOENT"],
    ["big.txt", `the limit is ${MAX_READ_FILE_BYTES}`],
  ])("refuses %s: %s", async (file_path, why) => {
    const result = await tool("Read", { file_path });
    expect(result).toMatch(/^error: file_path: /);
    expect(result).toContain(why);
    expect(result).not.toContain("TOP SECRET");
  });

  it("clips a long result", async () => {
    const result = await tool("Read", { file_path: "long.txt" });
    expect(result.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
    expect(result).toMatch(/more characters\)$/);
  });
});

describe("Glob", () => {
  it("lists matching files relative to the project, skipping node_modules and symlinks", async () => {
    expect((await tool("Glob", { pattern: "**/*.ts" })).split("\n").sort()).toEqual([
      "src/a.ts",
      "src/deep/b.ts",
    ]);
    expect(await tool("Glob", { pattern: "*.md" })).toBe("README.md");
    expect(await tool("Glob", { pattern: "*.ts", path: "src/deep" })).toBe("src/deep/b.ts");
    expect(await tool("Glob", { pattern: "*.txt" })).not.toContain("secret");
  });

  it(`says so when it left folders more than ${MAX_WALK_DEPTH} levels deep unsearched`, async () => {
    const deepProject = join(base, "deep-project");
    const chain = Array.from({ length: MAX_WALK_DEPTH + 1 }, () => "d");
    await mkdir(join(deepProject, ...chain), { recursive: true });
    await writeFile(join(deepProject, ...chain, "deep.md"), "TODO deep\n");
    await writeFile(join(deepProject, "top.md"), "TODO top\n");
    const run = (name: string, args: unknown) =>
      runAgentTool(deepProject, name, JSON.stringify(args), signal);
    const note = `(folders more than ${MAX_WALK_DEPTH} levels below the path were not searched)`;
    expect(await run("Glob", { pattern: "**/*.md" })).toBe(`top.md\n${note}`);
    expect(await run("Grep", { pattern: "TODO" })).toBe(`top.md:1: TODO top\n${note}`);
    expect(await run("Glob", { pattern: "**/*.md", path: "d" })).toBe(
      `d/${chain.slice(1).join("/")}/deep.md`,
    );
  });

  it("says so when nothing matches, and refuses a path outside", async () => {
    expect(await tool("Glob", { pattern: "*.rs" })).toBe("no files match");
    expect(await tool("Glob", { pattern: "*", path: ".." })).toMatch(/^error: path: outside/);
  });
});

describe("Grep", () => {
  it("lists path:line: text for matching lines", async () => {
    expect((await tool("Grep", { pattern: "TODO" })).split("\n").sort()).toEqual([
      "src/a.ts:2: // TODO: fix",
      "src/deep/b.ts:1: const b = 2; // TODO later",
    ]);
    expect(await tool("Grep", { pattern: "TODO", glob: "a.ts" })).toBe("src/a.ts:2: // TODO: fix");
  });

  it("runs patterns in linear time and refuses what RE2 cannot run", async () => {
    expect(await tool("Grep", { pattern: "^(a+)+$" })).toBe("no lines match");
    expect(await tool("Grep", { pattern: "(a)\\1" })).toMatch(/^error: pattern: /);
  });

  it("stops at the listing limit", async () => {
    const result = await tool("Grep", { pattern: "y", path: "long.txt" });
    expect(result.split("\n")).toHaveLength(MAX_LISTED + 1);
    expect(result).toContain(`(stopped at ${MAX_LISTED} results)`);
  });
});

describe("bad calls are results the model reads, not failures", () => {
  it.each([
    ["Write", { file_path: "x", content: "y" }, "unknown tool"],
    ["Bash", { command: "rm -rf /" }, "unknown tool"],
    ["Read", "{not json", "not valid JSON"],
    ["Read", "[1]", "must be a JSON object"],
    ["Read", {}, "file_path: expected a path"],
    ["Glob", { pattern: 3 }, "pattern: expected a glob"],
  ])("%s %j", async (name, args, why) => {
    const result = await tool(name, args);
    expect(result).toMatch(/^error: /);
    expect(result).toContain(why);
  });
});
