import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "./agent-error.js";
import { isInside, MAX_PATH_LENGTH, resolveWorkspacePath } from "./workspace-path.js";

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "ws-path-")));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  await mkdir(path.join(root, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, "src", "a.txt"), "a");
  await writeFile(path.join(outside, "secret.txt"), "secret");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(input: unknown): Promise<AgentError> {
  const error = await resolveWorkspacePath(root, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe("resolveWorkspacePath", () => {
  it("resolves paths inside the working directory, existing or not", async () => {
    expect(await resolveWorkspacePath(root, "src/a.txt")).toBe(path.join(root, "src", "a.txt"));
    expect(await resolveWorkspacePath(root, "./src/../src/a.txt")).toBe(
      path.join(root, "src", "a.txt"),
    );
    expect(await resolveWorkspacePath(root, "new/deep/file.md")).toBe(
      path.join(root, "new", "deep", "file.md"),
    );
    expect(await resolveWorkspacePath(root, path.join(root, "src"))).toBe(path.join(root, "src"));
    expect(await resolveWorkspacePath(root, ".")).toBe(root);
  });

  it("refuses .. that climbs out, in every spelling", async () => {
    for (const hostile of [
      "..",
      "../outside/secret.txt",
      "src/../../outside",
      "src/../../../../../etc/passwd",
      "./../root/../outside",
    ]) {
      const e = await refusal(hostile);
      expect(e.code, hostile).toBe("OUTSIDE_WORKSPACE");
      expect(e.message).toContain("outside the working directory");
      expect(e.path).toEqual(["file_path"]);
    }
  });

  it("refuses absolute paths elsewhere, including a sibling that shares the prefix", async () => {
    expect((await refusal("/etc/passwd")).code).toBe("OUTSIDE_WORKSPACE");
    expect((await refusal(path.join(outside, "secret.txt"))).code).toBe("OUTSIDE_WORKSPACE");
    await mkdir(`${root}-evil`);
    expect((await refusal(`${root}-evil/x`)).code).toBe("OUTSIDE_WORKSPACE");
  });

  it("refuses a symlinked folder that leads out, and files under it", async () => {
    await symlink(outside, path.join(root, "escape"));
    const e = await refusal("escape/secret.txt");
    expect(e.code).toBe("OUTSIDE_WORKSPACE");
    expect(e.message).toContain("symlink");
    expect((await refusal("escape/new-file.txt")).code).toBe("OUTSIDE_WORKSPACE");
    expect((await refusal("escape")).code).toBe("OUTSIDE_WORKSPACE");
  });

  it("refuses a symlinked file that points out, and a dangling one", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    expect((await refusal("link.txt")).code).toBe("OUTSIDE_WORKSPACE");
    await symlink(path.join(outside, "not-yet.txt"), path.join(root, "dangling.txt"));
    const e = await refusal("dangling.txt");
    expect(e.code).toBe("OUTSIDE_WORKSPACE");
    expect(e.message).toContain("missing target");
  });

  it("allows symlinks that stay inside", async () => {
    await symlink(path.join(root, "src"), path.join(root, "alias"));
    expect(await resolveWorkspacePath(root, "alias/a.txt")).toBe(path.join(root, "src", "a.txt"));
  });

  it("answers malformed and huge input with INVALID_INPUT naming the field", async () => {
    for (const bad of ["", 42, null, undefined, {}, "a\0b", "x".repeat(MAX_PATH_LENGTH + 1)]) {
      const e = await refusal(bad);
      expect(e.code).toBe("INVALID_INPUT");
      expect(e.message.startsWith("file_path:")).toBe(true);
    }
    const e = await resolveWorkspacePath(root, "a\0b", ["args", "path"]).catch(
      (x: AgentError) => x,
    );
    expect(e).toMatchObject({ code: "INVALID_INPUT", path: ["args", "path"] });
  });
});

describe("isInside", () => {
  it("treats a root of / as holding every absolute path", () => {
    expect(isInside("/", "/")).toBe(true);
    expect(isInside("/", "/tmp/ws/a.md")).toBe(true);
  });

  it("compares whole segments: a folder named ..x is inside, a sibling with the same prefix is not", () => {
    expect(isInside("/tmp/ws", "/tmp/ws")).toBe(true);
    expect(isInside("/tmp/ws", "/tmp/ws/..x/skill.md")).toBe(true);
    expect(isInside("/tmp/ws", "/tmp/ws2/skill.md")).toBe(false);
    expect(isInside("/tmp/ws", "/tmp")).toBe(false);
    expect(isInside("/tmp/ws/", "/tmp/ws/a")).toBe(true);
  });

  it("lets a tool reach a real folder named ..x inside the working directory", async () => {
    await mkdir(path.join(root, "..x"));
    expect(await resolveWorkspacePath(root, "..x/b.txt")).toBe(path.join(root, "..x", "b.txt"));
  });
});
