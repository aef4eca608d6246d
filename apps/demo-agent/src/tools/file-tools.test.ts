import { execFileSync } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "./edit-tool.js";
import { GLOB_RESULT_LIMIT, globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { readTool } from "./read-tool.js";
import { parseToolInput } from "./tool.js";
import { WRITE_LIMIT, writeTool } from "./write-tool.js";

let base: string;
let workdir: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "file-tools-")));
  workdir = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(workdir, "docs"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.md"), "the secret\n");
  await writeFile(path.join(workdir, "docs", "a.md"), "alpha\nbeta\ngamma\n");
  await writeFile(path.join(workdir, "b.txt"), "beta one\nBETA two\n");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const ctx = () => ({ workdir });

describe("Read", () => {
  it("reads a file, or a window of lines", async () => {
    expect((await readTool.run({ file_path: "docs/a.md" }, ctx())).output).toBe(
      "alpha\nbeta\ngamma\n",
    );
    expect(
      (await readTool.run({ file_path: "docs/a.md", offset: 2, limit: 1 }, ctx())).output,
    ).toBe("beta");
  });

  it("refuses to read outside, through .., absolute paths or symlinks", async () => {
    await symlink(path.join(outside, "secret.md"), path.join(workdir, "link.md"));
    for (const file_path of ["../outside/secret.md", path.join(outside, "secret.md"), "link.md"]) {
      await expect(readTool.run({ file_path }, ctx()), file_path).rejects.toMatchObject({
        code: "OUTSIDE_WORKSPACE",
      });
    }
  });

  it("says NOT_FOUND for a missing file and INVALID_INPUT for a folder", async () => {
    await expect(readTool.run({ file_path: "nope.md" }, ctx())).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'args.file_path: "nope.md" does not exist',
    });
    await expect(readTool.run({ file_path: "docs" }, ctx())).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });
});

describe("special files", () => {
  it("answers Reads of a FIFO with an error at once, and later Reads still run", async () => {
    execFileSync("mkfifo", [path.join(workdir, "pipe")]);
    // Four: as many as libuv's threads. A blocking open of a FIFO would hold each one for ever.
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => readTool.run({ file_path: "pipe" }, ctx()).catch((e: unknown) => e)),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({
        code: "INVALID_INPUT",
        path: ["args", "file_path"],
        message: 'args.file_path: "pipe" is a FIFO, not a regular file',
      });
    }
    expect((await readTool.run({ file_path: "docs/a.md" }, ctx())).output).toBe(
      "alpha\nbeta\ngamma\n",
    );
  });

  it("refuses to Write, Edit or Grep a FIFO, and a tree search skips it", async () => {
    execFileSync("mkfifo", [path.join(workdir, "pipe")]);
    await expect(writeTool.run({ file_path: "pipe", content: "x" }, ctx())).rejects.toMatchObject({
      code: "INVALID_INPUT",
      path: ["args", "file_path"],
    });
    await expect(
      editTool.run({ file_path: "pipe", old_string: "a", new_string: "b" }, ctx()),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("FIFO") });
    await expect(grepTool.run({ pattern: "x", path: "pipe" }, ctx())).rejects.toMatchObject({
      code: "INVALID_INPUT",
      path: ["args", "path"],
    });
    expect((await grepTool.run({ pattern: "gamma" }, ctx())).output).toBe("docs/a.md:3: gamma");
  });
});

describe("Write", () => {
  it("creates folders and files", async () => {
    const result = await writeTool.run({ file_path: "new/deep/c.md", content: "hi" }, ctx());
    expect(result.output).toBe("wrote 2 bytes to new/deep/c.md");
    expect(await readFile(path.join(workdir, "new", "deep", "c.md"), "utf8")).toBe("hi");
  });

  it("never writes through a symlink out of the working directory", async () => {
    await symlink(path.join(outside, "secret.md"), path.join(workdir, "link.md"));
    await symlink(path.join(outside, "planted.md"), path.join(workdir, "dangling.md"));
    await symlink(outside, path.join(workdir, "dir-link"));
    for (const file_path of ["link.md", "dangling.md", "dir-link/x.md", "../outside/x.md"]) {
      await expect(
        writeTool.run({ file_path, content: "pwned" }, ctx()),
        file_path,
      ).rejects.toMatchObject({
        code: "OUTSIDE_WORKSPACE",
      });
    }
    expect(await readFile(path.join(outside, "secret.md"), "utf8")).toBe("the secret\n");
    await expect(readFile(path.join(outside, "planted.md"))).rejects.toThrow();
    await expect(readFile(path.join(outside, "x.md"))).rejects.toThrow();
  });

  it("tells FileChanged the file it wrote, through a symlink inside resolved", async () => {
    await symlink("docs/a.md", path.join(workdir, "alias.md"));
    const changed: [string, string][] = [];
    const fileChanged = async (file: string, event: "add" | "change") => {
      changed.push([file, event]);
    };
    await writeTool.run({ file_path: "alias.md", content: "new" }, { workdir, fileChanged });
    await writeTool.run(
      { file_path: "./docs/../fresh.md", content: "x" },
      { workdir, fileChanged },
    );
    expect(changed).toEqual([
      [path.join(workdir, "docs", "a.md"), "change"],
      [path.join(workdir, "fresh.md"), "add"],
    ]);
    expect(await readFile(path.join(workdir, "docs", "a.md"), "utf8")).toBe("new");
  });

  it("refuses content over the limit before anything runs", () => {
    expect(() =>
      parseToolInput(writeTool, { file_path: "big", content: "x".repeat(WRITE_LIMIT + 1) }),
    ).toThrow(/args\.content/);
  });
});

describe("Edit", () => {
  it("replaces one unique occurrence, literally", async () => {
    await editTool.run(
      { file_path: "docs/a.md", old_string: "beta", new_string: "$& and $1" },
      ctx(),
    );
    expect(await readFile(path.join(workdir, "docs", "a.md"), "utf8")).toBe(
      "alpha\n$& and $1\ngamma\n",
    );
  });

  it("refuses an ambiguous or missing old_string, and replaces all when asked", async () => {
    await writeFile(path.join(workdir, "dup.md"), "x x x");
    await expect(
      editTool.run({ file_path: "dup.md", old_string: "x", new_string: "y" }, ctx()),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      path: ["args", "old_string"],
    });
    await expect(
      editTool.run({ file_path: "dup.md", old_string: "z", new_string: "y" }, ctx()),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const result = await editTool.run(
      { file_path: "dup.md", old_string: "x", new_string: "y", replace_all: true },
      ctx(),
    );
    expect(result.output).toContain("replaced 3");
    expect(await readFile(path.join(workdir, "dup.md"), "utf8")).toBe("y y y");
  });

  it("refuses files outside and missing files", async () => {
    await expect(
      editTool.run(
        { file_path: "../outside/secret.md", old_string: "secret", new_string: "x" },
        ctx(),
      ),
    ).rejects.toMatchObject({ code: "OUTSIDE_WORKSPACE" });
    await expect(
      editTool.run({ file_path: "nope.md", old_string: "a", new_string: "b" }, ctx()),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("Edit's size limit", () => {
  it("refuses a file larger than a Write may be, before reading it", async () => {
    await writeFile(path.join(workdir, "huge.md"), "");
    await truncate(path.join(workdir, "huge.md"), WRITE_LIMIT + 1);
    await expect(
      editTool.run({ file_path: "huge.md", old_string: "a", new_string: "b" }, ctx()),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", path: ["args", "file_path"] });
  });
});

describe.each(["linux", "darwin"] as const)("Glob and Grep (%s)", (platform) => {
  // The walk lists folders through WorkspaceRoot, which picks its way when it opens the root.
  beforeEach(() => {
    if (platform === process.platform) return;
    const real = Object.getOwnPropertyDescriptor(process, "platform")!;
    Object.defineProperty(process, "platform", { ...real, value: platform });
    return () => Object.defineProperty(process, "platform", real);
  });

  it("Glob lists matches relative to the working directory and never follows symlinks out", async () => {
    await symlink(outside, path.join(workdir, "escape"));
    const glob = async (pattern: string, dir?: string) =>
      JSON.parse(
        (await globTool.run(dir === undefined ? { pattern } : { pattern, path: dir }, ctx()))
          .output,
      );
    expect(await glob("**/*.md")).toEqual({ files: ["docs/a.md"], truncated: false });
    expect(await glob("*.txt")).toEqual({ files: ["b.txt"], truncated: false });
    expect(await glob("*.none")).toEqual({ files: [], truncated: false });
    expect(await glob("**/*", "docs")).toEqual({ files: ["docs/a.md"], truncated: false });
    await expect(globTool.run({ pattern: "*", path: "../outside" }, ctx())).rejects.toMatchObject({
      code: "OUTSIDE_WORKSPACE",
    });
  });

  it("Glob answers JSON, so a file name with a newline cannot pass for two files", async () => {
    await writeFile(path.join(workdir, "a\nsecret.txt"), "x");
    const { output } = await globTool.run({ pattern: "*.txt" }, ctx());
    expect(JSON.parse(output)).toEqual({ files: ["a\nsecret.txt", "b.txt"], truncated: false });
  });

  it("Glob says when it stopped at its limit", async () => {
    await mkdir(path.join(workdir, "many"));
    for (let i = 0; i <= GLOB_RESULT_LIMIT; i++) {
      await writeFile(path.join(workdir, "many", `${i}.log`), "");
    }
    const { files, truncated } = JSON.parse(
      (await globTool.run({ pattern: "many/*.log" }, ctx())).output,
    );
    expect(files).toHaveLength(GLOB_RESULT_LIMIT);
    expect(truncated).toBe(true);
  });

  it("Grep quotes a file name with a newline, so it cannot forge a match line", async () => {
    // Unquoted, this name would add the line `a.txt:1: "beta" forged` to the answer.
    await writeFile(path.join(workdir, 'a.txt:1: "beta" forged\nz.txt'), "beta\n");
    expect((await grepTool.run({ pattern: "beta", glob: "*.txt" }, ctx())).output).toBe(
      '"a.txt:1: \\"beta\\" forged\\nz.txt":1: beta\nb.txt:1: beta one',
    );
  });

  it("Grep answers file:line: text, with case and glob options", async () => {
    expect((await grepTool.run({ pattern: "beta" }, ctx())).output).toBe(
      "b.txt:1: beta one\ndocs/a.md:2: beta",
    );
    expect(
      (await grepTool.run({ pattern: "beta", ignore_case: true, glob: "*.txt" }, ctx())).output,
    ).toBe("b.txt:1: beta one\nb.txt:2: BETA two");
    expect((await grepTool.run({ pattern: "gamma", path: "docs/a.md" }, ctx())).output).toBe(
      "docs/a.md:3: gamma",
    );
    expect((await grepTool.run({ pattern: "zzz" }, ctx())).output).toBe("no matches");
  });

  it("Grep refuses a broken regex with the field named, and paths outside", async () => {
    await expect(grepTool.run({ pattern: "(unclosed" }, ctx())).rejects.toMatchObject({
      code: "INVALID_INPUT",
      path: ["args", "pattern"],
    });
    await expect(
      grepTool.run({ pattern: "secret", path: "../outside" }, ctx()),
    ).rejects.toMatchObject({
      code: "OUTSIDE_WORKSPACE",
    });
    await symlink(outside, path.join(workdir, "escape"));
    expect((await grepTool.run({ pattern: "secret" }, ctx())).output).toBe("no matches");
  });

  it("Grep stops a catastrophically backtracking pattern at its timeout", async () => {
    await writeFile(path.join(workdir, "huge.txt"), `${"a".repeat(500_000)}!\n`);
    const started = Date.now();
    await expect(grepTool.run({ pattern: "(a+)+!", timeout: 300 }, ctx())).rejects.toMatchObject({
      code: "TIMEOUT",
      path: ["args", "pattern"],
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    // A long line that matches is found, cut to a readable length.
    const found = await grepTool.run({ pattern: "^a{10}", glob: "huge.txt" }, ctx());
    expect(found.output.startsWith("huge.txt:1: aaaa")).toBe(true);
    expect(found.output.length).toBeLessThan(300);
  });
});
