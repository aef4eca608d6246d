import { spawn } from "node:child_process";
import type { SpawnResult } from "../interpret-result.js";

export type { SpawnResult };

/** One process to run. */
export interface SpawnSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. */
  input: string;
  /** Milliseconds before the process group is killed; `Infinity` for none. */
  timeout: number;
  /** Aborting kills the process group. */
  signal?: AbortSignal | undefined;
  /** Bytes kept per stream; the rest is read and discarded. */
  maxOutputBytes: number;
  /** Milliseconds between SIGTERM and SIGKILL. */
  killGrace: number;
  /**
   * Milliseconds of silence on stdout/stderr, after the process exited, before we stop
   * waiting for a background child that still holds the pipes.
   */
  drainTimeout: number;
  /**
   * Leave the process group alone when the process exits. By default the group is killed
   * then, so children started with `&` end with the hook that started them.
   */
  keepChildren?: boolean | undefined;
}

class CappedOutput {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  total = 0;
  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.limit - this.#kept;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(kept);
    this.#kept += kept.length;
  }

  get truncated(): boolean {
    return this.total > this.#kept;
  }

  text(): string {
    return Buffer.concat(this.#chunks, this.#kept).toString("utf8");
  }
}

/**
 * Spawn a process in its own process group, feed it stdin, collect capped output, and kill
 * the whole group (SIGTERM, then SIGKILL) on timeout, on abort, and when the process exits
 * (unless `keepChildren`), so children it forked die too. A child that left the group
 * (`setsid`, a daemon) is out of reach. Never rejects: every way a run can end is in the result.
 */
export function spawnCommand(spec: SpawnSpec): Promise<SpawnResult> {
  return new Promise((resolve) => {
    const start = performance.now();
    const stdout = new CappedOutput(spec.maxOutputBytes);
    const stderr = new CappedOutput(spec.maxOutputBytes);
    const state: Pick<
      SpawnResult,
      "exitCode" | "signal" | "timedOut" | "aborted" | "abortReason" | "error"
    > = { exitCode: null, signal: null, timedOut: false, aborted: false };
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let pid: number | undefined;

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      spec.signal?.removeEventListener("abort", onAbort);
      resolve({
        pid,
        ...state,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutBytes: stdout.total,
        stderrBytes: stderr.total,
        truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
        duration: performance.now() - start,
      });
    };

    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        // A negative pid is the process group: the shell and everything it started.
        process.kill(-pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stop = () => {
      killGroup("SIGTERM");
      // Unref'd: a stubborn child must not keep the host alive, but it still gets its SIGKILL.
      setTimeout(() => killGroup("SIGKILL"), spec.killGrace).unref();
    };
    const onAbort = () => {
      state.aborted = true;
      state.abortReason = spec.signal?.reason;
      stop();
    };

    if (spec.signal?.aborted) {
      state.aborted = true;
      state.abortReason = spec.signal.reason;
      finish();
      return;
    }

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(spec.file, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      state.error = error as NodeJS.ErrnoException;
      finish();
      return;
    }
    pid = child.pid;

    child.on("error", (error: NodeJS.ErrnoException) => {
      state.error ??= error;
      if (child.pid === undefined) finish();
    });
    if (!child.stdin || !child.stdout || !child.stderr) {
      // EMFILE / ENFILE: Node could not make the pipes, and reports why in the error event.
      return;
    }
    let lastData = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      lastData++;
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      lastData++;
      stderr.push(chunk);
    });
    // EPIPE and friends: a hook that never reads stdin, or closes it early, is fine.
    child.stdin.on("error", () => {});
    child.stdin.end(spec.input);

    child.on("exit", (code, signal) => {
      state.exitCode = code;
      state.signal = signal;
      // The hook is done: its background children (`cmd &`) go with it. Output they already
      // wrote stays in the pipes and is still read below.
      if (!spec.keepChildren) stop();
      // A background child (`cmd &`) may hold the pipes open long after the hook is done.
      // Stop waiting once they have been quiet for a while; leave that child alone.
      let seen = lastData;
      const check = () => {
        if (lastData !== seen) {
          seen = lastData;
          drainTimer = setTimeout(check, spec.drainTimeout);
          return;
        }
        // Let pending reads land first: timers run before the poll phase.
        setImmediate(() => {
          if (lastData !== seen) return check();
          child.stdout!.destroy();
          child.stderr!.destroy();
          finish();
        });
      };
      drainTimer = setTimeout(check, spec.drainTimeout);
    });
    child.on("close", (code, signal) => {
      state.exitCode ??= code;
      state.signal ??= signal;
      finish();
    });

    if (Number.isFinite(spec.timeout)) {
      timer = setTimeout(() => {
        state.timedOut = true;
        stop();
      }, spec.timeout);
    }
    spec.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
