import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isAlive } from "../../../../test-support/process-alive.ts";
import { AgentError } from "../agent-error.js";
import { BASH_OUTPUT_LIMIT, bashTool } from "./bash-tool.js";
import { parseToolInput } from "./tool.js";

let workdir: string;
beforeEach(async () => {
  workdir = await realpath(await mkdtemp(path.join(os.tmpdir(), "bash-tool-")));
});
afterEach(async () => {
  await rm(workdir, { recursive: true, force: true });
});

describe("Bash", () => {
  it("runs in the working directory and returns stdout, stderr and the exit code", async () => {
    const ok = await bashTool.run({ command: "pwd; echo oops >&2" }, { workdir });
    expect(ok).toEqual({ output: `${workdir}\noops\n`, exitCode: 0, success: true });
    const failed = await bashTool.run({ command: "exit 3" }, { workdir });
    expect(failed).toMatchObject({ exitCode: 3, success: false });
  });

  it("keeps the agent's credentials out of the command's environment", async () => {
    vi.stubEnv("A3S_TOKEN", "secret-token");
    vi.stubEnv("OPENAI_API_KEY", "sk-secret");
    vi.stubEnv("A3S_HOOKS_MODEL_API_KEY", "sk-hooks");
    const result = await bashTool.run(
      { command: 'echo "[$A3S_TOKEN][$OPENAI_API_KEY][$A3S_HOOKS_MODEL_API_KEY][$HOME]"' },
      { workdir },
    );
    expect(result.output).toBe(`[][][][${process.env.HOME}]\n`);
  });

  it("kills the whole process group on timeout, background children included", async () => {
    const started = Date.now();
    const error = await bashTool
      .run({ command: "sleep 30 & echo $! > child.pid; wait", timeout: 300 }, { workdir })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "TIMEOUT", path: ["args", "timeout"] });
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number((await readFile(path.join(workdir, "child.pid"), "utf8")).trim());
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
  });

  it("answers at its timeout even when a child left the process group and holds the output open", async () => {
    // setsid takes the child out of the group the timeout kills; it keeps stdout open.
    const command =
      "setsid sh -c 'echo $$ > escaped.pid; exec sleep 60' & while [ ! -s escaped.pid ]; do :; done; wait";
    const error = await bashTool.run({ command, timeout: 1000 }, { workdir }).catch((e) => e);
    const escaped = Number((await readFile(path.join(workdir, "escaped.pid"), "utf8")).trim());
    expect(escaped).toBeGreaterThan(0);
    process.kill(escaped, "SIGKILL");
    expect(error).toMatchObject({ code: "TIMEOUT", path: ["args", "timeout"] });
  });

  it("leaves no background job behind when the command itself ends", async () => {
    const result = await bashTool.run({ command: "sleep 30 & echo $!" }, { workdir });
    const pid = Number(result.output.trim());
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
  });

  it("stops when the turn is cancelled", async () => {
    const controller = new AbortController();
    const running = bashTool.run({ command: "sleep 30" }, { workdir, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ code: "ABORTED" });
    await expect(
      bashTool.run({ command: "echo never" }, { workdir, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("caps huge output and says so", async () => {
    const result = await bashTool.run(
      { command: `head -c ${BASH_OUTPUT_LIMIT * 3} /dev/zero | tr '\\0' x` },
      { workdir },
    );
    expect(result.output.length).toBeLessThan(BASH_OUTPUT_LIMIT + 100);
    expect(result.output).toContain("[output truncated");
  });

  it("validates its input, naming the field", () => {
    const bad = [
      [{}, "args.command"],
      [{ command: "" }, "args.command"],
      [{ command: 42 }, "args.command"],
      [{ command: "ls\0rm" }, "args.command"],
      [{ command: "ls", timeout: -1 }, "args.timeout"],
      [{ command: "ls", timeout: 1e12 }, "args.timeout"],
      [{ command: "ls", extra: true }, "extra"],
    ] as const;
    for (const [args, field] of bad) {
      const error = (() => {
        try {
          parseToolInput(bashTool, args);
        } catch (e) {
          return e as AgentError;
        }
      })();
      expect(error?.code, JSON.stringify(args)).toBe("INVALID_INPUT");
      expect(error?.message).toContain(field);
    }
  });
});
