import { execFileSync } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspacePathError } from "./workspace-path-error.js";
import { MAX_SYMLINK_HOPS, type OpenIntent, WorkspaceRoot } from "./workspace-root.js";

let base: string;
let workdir: string;
let outside: string;
let root: WorkspaceRoot;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "ws-root-")));
  workdir = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(workdir, "src", "deep"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(workdir, "src", "deep", "a.txt"), "inside");
  await writeFile(path.join(outside, "secret.txt"), "secret");
  root = await WorkspaceRoot.open(workdir);
});

afterEach(async () => {
  await root.close();
  await rm(base, { recursive: true, force: true });
});

const field = ["args", "file_path"] as const;

/** Open, read what was opened, close; or the WorkspacePathError it was refused with. */
async function attempt(
  input: string,
  intent: OpenIntent = "read",
  options: { followSymlinks?: boolean } = {},
): Promise<{ relative: string; text: string } | WorkspacePathError> {
  try {
    const opened = await root.open(input, intent, { field, ...options });
    try {
      const readable = opened.stat.isFile() && intent !== "write";
      const text = readable ? await opened.handle.readFile("utf8") : "";
      return { relative: opened.relative, text };
    } finally {
      await opened.handle.close();
    }
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspacePathError);
    return error as WorkspacePathError;
  }
}

/**
 * Every case runs twice: with Linux's descriptor-relative walk, and with the by-name walk other
 * platforms use (chosen when the root is opened, so the platform is stubbed only for that).
 */
describe.each(["linux", "darwin"] as const)("WorkspaceRoot.open (%s)", (platform) => {
  beforeEach(async () => {
    if (platform === process.platform) return;
    await root.close();
    const real = Object.getOwnPropertyDescriptor(process, "platform")!;
    Object.defineProperty(process, "platform", { ...real, value: platform });
    try {
      root = await WorkspaceRoot.open(workdir);
    } finally {
      Object.defineProperty(process, "platform", real);
    }
  });

  it("opens paths inside, `..` that stays inside included, and the root itself as a folder", async () => {
    expect(await attempt("src/deep/a.txt")).toEqual({ relative: "src/deep/a.txt", text: "inside" });
    expect(await attempt("./src/../src/deep/a.txt")).toMatchObject({ relative: "src/deep/a.txt" });
    expect(await attempt(path.join(workdir, "src/deep/a.txt"))).toMatchObject({ text: "inside" });
    expect(await attempt(".", "folder")).toEqual({ relative: "", text: "" });
  });

  it("refuses `..` out of the working directory and absolute paths elsewhere", async () => {
    for (const input of ["..", "../outside/secret.txt", "src/../../outside/secret.txt"]) {
      expect(await attempt(input), input).toMatchObject({
        reason: "OUTSIDE_WORKSPACE",
        code: "PERMISSION_DENIED",
        path: field,
        message: `args.file_path: ${JSON.stringify(input)} is outside the working directory; tools may only touch files inside the working directory`,
      });
    }
    expect(await attempt(path.join(outside, "secret.txt"))).toMatchObject({
      reason: "OUTSIDE_WORKSPACE",
    });
  });

  it("refuses a symlinked folder in the middle of the path that leads out, for every intent", async () => {
    await symlink(outside, path.join(workdir, "src", "escape"));
    await symlink("../../outside", path.join(workdir, "src", "relative-escape"));
    for (const intent of ["read", "write", "update"] as const) {
      for (const link of ["escape", "relative-escape"]) {
        const refused = await attempt(`src/${link}/secret.txt`, intent);
        expect(refused, `${intent} ${link}`).toMatchObject({
          reason: "OUTSIDE_WORKSPACE",
          message: expect.stringContaining(`through the symlink "src/${link}"`),
        });
      }
    }
    expect(await attempt("src/escape/new/file.txt", "write")).toMatchObject({
      reason: "OUTSIDE_WORKSPACE",
    });
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("refuses a last component that is a symlink out, dangling or not, and creates nothing", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(workdir, "link.txt"));
    await symlink(path.join(outside, "planted.txt"), path.join(workdir, "dangling.txt"));
    for (const input of ["link.txt", "dangling.txt"]) {
      for (const intent of ["read", "write", "update"] as const) {
        expect(await attempt(input, intent), `${intent} ${input}`).toMatchObject({
          reason: "OUTSIDE_WORKSPACE",
        });
      }
    }
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("resolves symlinks that stay inside, and names where they led", async () => {
    await symlink("src/deep", path.join(workdir, "alias"));
    await symlink(path.join(workdir, "src"), path.join(workdir, "absolute-alias"));
    await symlink("../deep/a.txt", path.join(workdir, "src", "deep", "again.txt"));
    expect(await attempt("alias/a.txt")).toEqual({ relative: "src/deep/a.txt", text: "inside" });
    expect(await attempt("absolute-alias/deep/again.txt")).toEqual({
      relative: "src/deep/a.txt",
      text: "inside",
    });
    // A dangling link that stays inside: a write creates its target, inside.
    await symlink("src/made.txt", path.join(workdir, "to-be-made.txt"));
    expect(await attempt("to-be-made.txt", "write")).toMatchObject({ relative: "src/made.txt" });
  });

  it("follows no symlink at all when told not to", async () => {
    await symlink("src", path.join(workdir, "alias"));
    expect(await attempt("alias/deep/a.txt", "read", { followSymlinks: false })).toMatchObject({
      reason: "OUTSIDE_WORKSPACE",
      message: expect.stringContaining('the symlink "alias", which is not followed'),
    });
  });

  it("opens a folder inside an opened folder by its name, following nothing", async () => {
    await symlink("deep", path.join(workdir, "src", "alias"));
    await symlink(outside, path.join(workdir, "src", "out"));
    const src = await root.open("src", "folder", { field });
    try {
      const deep = await root.openFolderIn(src, "deep", { field });
      await deep.handle.close();
      expect(deep.relative).toBe("src/deep");
      expect(deep.stat.isDirectory()).toBe(true);
      const refused = (name: string) =>
        root.openFolderIn(src, name, { field }).then(
          (opened) => opened.handle.close().then(() => "opened"),
          (error: WorkspacePathError) => error.reason,
        );
      expect(await refused("alias")).toBe("OUTSIDE_WORKSPACE");
      expect(await refused("out")).toBe("OUTSIDE_WORKSPACE");
      expect(await refused("missing")).toBe("NOT_FOUND");
      expect(await refused("..")).toBe("INVALID_INPUT");
      expect(await refused("deep/a.txt")).toBe("INVALID_INPUT");
      const deep2 = await root.openFolderIn(src, "deep", { field });
      try {
        expect(
          await root.openFolderIn(deep2, "a.txt", { field }).catch((e: WorkspacePathError) => e),
        ).toMatchObject({ reason: "INVALID_INPUT", path: field });
      } finally {
        await deep2.handle.close();
      }
    } finally {
      await src.handle.close();
    }
  });

  it(`gives up on a chain of more than ${MAX_SYMLINK_HOPS} symlinks`, async () => {
    await symlink("loop-b", path.join(workdir, "loop-a"));
    await symlink("loop-a", path.join(workdir, "loop-b"));
    expect(await attempt("loop-a/x.txt")).toMatchObject({
      reason: "INVALID_INPUT",
      message: expect.stringContaining(`more than ${MAX_SYMLINK_HOPS} symlinks`),
    });
  });

  it("creates missing folders for a write, and only for a write", async () => {
    expect(await attempt("new/deeper/c.txt")).toMatchObject({ reason: "NOT_FOUND" });
    expect(await attempt("new/deeper/c.txt", "update")).toMatchObject({ reason: "NOT_FOUND" });
    await expect(readdir(path.join(workdir, "new"))).rejects.toThrow();
    expect(await attempt("new/deeper/c.txt", "write")).toEqual({
      relative: "new/deeper/c.txt",
      text: "",
    });
  });

  it("says what is wrong with a path that is there but not the kind asked for", async () => {
    expect(await attempt("src")).toMatchObject({
      reason: "INVALID_INPUT",
      message: 'args.file_path: "src" is a folder, not a regular file',
    });
    expect(await attempt("src", "write")).toMatchObject({ reason: "INVALID_INPUT" });
    expect(await attempt("src/deep/a.txt", "folder")).toMatchObject({
      reason: "INVALID_INPUT",
      message: 'args.file_path: "src/deep/a.txt" is not a folder',
    });
    expect(await attempt("src/deep/a.txt/more")).toMatchObject({ reason: "NOT_FOUND" });
    expect(await attempt("missing.txt")).toMatchObject({
      reason: "NOT_FOUND",
      code: "NOT_FOUND",
      details: { errno: "ENOENT" },
      message: 'args.file_path: "missing.txt" does not exist',
    });
    const long = "x".repeat(300);
    expect(await attempt(long)).toMatchObject({
      reason: "TOOL_FAILED",
      path: field,
      message: `args.file_path: "${long}" cannot be opened (ENAMETOOLONG)`,
    });
  });

  it("refuses FIFOs and sockets before reading or writing them", async () => {
    execFileSync("mkfifo", [path.join(workdir, "pipe")]);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(workdir, "sock"), resolve));
    try {
      for (const intent of ["read", "write", "update"] as const) {
        expect(await attempt("pipe", intent), intent).toMatchObject({ reason: "INVALID_INPUT" });
        expect(await attempt("sock", intent), intent).toMatchObject({ reason: "INVALID_INPUT" });
      }
      expect(await attempt("pipe")).toMatchObject({
        message: 'args.file_path: "pipe" is a FIFO, not a regular file',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("takes an absolute path spelled through a symlinked working directory", async () => {
    const spelled = path.join(base, "ws-link");
    await symlink(workdir, spelled);
    const other = await WorkspaceRoot.open(spelled);
    try {
      expect(other.path).toBe(workdir);
      const opened = await other.open(path.join(spelled, "src/deep/a.txt"), "read", { field });
      await opened.handle.close();
      expect(opened.relative).toBe("src/deep/a.txt");
    } finally {
      await other.close();
    }
  });

  it("names the root in its messages as the caller asks", async () => {
    const other = await WorkspaceRoot.open(workdir, { name: "the project directory" });
    try {
      await expect(other.open("../outside/secret.txt", "read", { field })).rejects.toMatchObject({
        message: expect.stringMatching(
          /is outside the project directory; tools may only touch files inside the project directory$/,
        ),
      });
    } finally {
      await other.close();
    }
  });

  it("answers INVALID_INPUT naming the field for input that is not a path", async () => {
    for (const input of ["", "a\0b", 42]) {
      await expect(root.open(input, "read", { field })).rejects.toMatchObject({
        reason: "INVALID_INPUT",
        path: field,
      });
    }
  });
});
