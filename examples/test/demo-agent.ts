import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { A3sClient } from "@a3s-lab/box";
import type { HookEvent, HookEventMap, HookEventName } from "@a3s-lab/hooks-core";
import { programArgs } from "../../test-support/program-bundles.ts";

/** A hang guard for start-up: a second or so, more on a busy machine. */
const START_TIMEOUT_MS = 25_000;
const STOP_TIMEOUT_MS = 10_000;

/** One line of the demo's `--events` log: the event as fired, and the merged decision. */
export interface EventRecord<E extends HookEvent = HookEvent> {
  event: E;
  result: {
    action: string;
    reason?: string;
    modified: boolean;
    permission?: string;
    /** The hooks that ran: names where they have one, else engine ids (`clientId/hookId`). */
    hooks: string[];
  };
}

export interface DemoAgentOptions {
  /**
   * `serve --permission`: the answer to permission questions that no hook decides. The demo's
   * default is `deny`; tools that change things run only with `allow`.
   */
  permission?: "allow" | "deny";
}

/**
 * `a3s-demo-agent serve` (apps/demo-agent) in a fresh temporary working directory, and an
 * `A3sClient` of this process connected to it: what a user of the examples runs. Tools are the
 * demo's real ones (Bash runs `/bin/sh` in the working directory), the model is the scripted
 * one, and the `--events` log says what the agent fired and decided.
 *
 * @example
 * ```ts
 * const agent = await DemoAgent.start({ permission: "allow" });
 * securityPolicy(agent.client);
 * await agent.client.ready();
 * // … agent.client.executeTool(…), then agent.fired("PreToolUse")
 * await agent.stop();
 * ```
 */
export class DemoAgent {
  /** The agent's working directory (a temporary folder, removed by `stop`). */
  readonly workdir: string;
  readonly address: string;
  readonly client: A3sClient;
  readonly #process: ChildProcess;
  readonly #eventsFile: string;
  readonly #root: string;

  private constructor(init: {
    root: string;
    workdir: string;
    address: string;
    token: string;
    process: ChildProcess;
  }) {
    this.#root = init.root;
    this.workdir = init.workdir;
    this.address = init.address;
    this.#process = init.process;
    this.#eventsFile = path.join(init.root, "events.jsonl");
    this.client = new A3sClient({ address: init.address, token: init.token });
  }

  static async start(options: DemoAgentOptions = {}): Promise<DemoAgent> {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "a3s-examples-")));
    const workdir = path.join(root, "work");
    await mkdir(path.join(root, "home"), { recursive: true });
    await mkdir(workdir);
    const token = randomBytes(18).toString("base64url");
    // The demo's CLI, what `a3s-demo-agent` runs, bundled from source once per run
    // (test/programs.ts): the bin would transpile it with tsx at every start. The README's
    // commands (root-readme.test.ts) still go through the bin, as a user's do.
    const child = spawn(
      process.execPath,
      programArgs("a3s-demo-agent", [
        "serve",
        "--workdir",
        workdir,
        "--events",
        path.join(root, "events.jsonl"),
        "--permission",
        options.permission ?? "deny",
      ]),
      {
        cwd: workdir,
        // The token travels in the environment, not on a command line others can read. HOME is
        // empty so the user's own ~/.claude/settings.json hooks stay out of the tests, and no
        // model variables leak in: the scripted model answers.
        env: {
          ...process.env,
          HOME: path.join(root, "home"),
          A3S_TOKEN: token,
          A3S_MODEL: undefined,
          A3S_ADDRESS: undefined,
          NO_COLOR: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group: stop() can end it and anything it started together.
        detached: true,
      },
    );
    // Drain stderr (the transcript) so the agent never blocks on a full pipe; keep the end
    // of it for error messages.
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-8192);
    });
    let address: string;
    try {
      address = await listening(child, () => stderr);
    } catch (error) {
      await kill(child);
      await rm(root, { recursive: true, force: true });
      throw error;
    }
    return new DemoAgent({ root, workdir, address, token, process: child });
  }

  /** Every record of the events log so far (the demo writes each one synchronously). */
  async events(): Promise<EventRecord[]> {
    const text = await readFile(this.#eventsFile, "utf8");
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as EventRecord);
  }

  /** The records of one event type, in the order they fired. */
  async fired<K extends HookEventName>(type: K): Promise<EventRecord<HookEventMap[K]>[]> {
    return (await this.events()).filter(
      (r): r is EventRecord<HookEventMap[K]> => r.event.eventType === type,
    );
  }

  /** Close the client, stop the agent (SIGTERM: it ends its sessions), remove its folder. */
  async stop(): Promise<void> {
    try {
      await this.client.close();
    } finally {
      await kill(this.#process);
      await rm(this.#root, { recursive: true, force: true });
    }
  }
}

/** Resolve with `HOST:PORT` from serve's one line on stdout. */
function listening(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(
      () => fail(`no "listening on" line within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`a3s-demo-agent serve: ${why}\n${stderr()}`));
    };
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const match = /^listening on (\S+)$/m.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code}) before listening`));
  });
}

/**
 * SIGTERM the agent (it ends its sessions and exits), and SIGKILL its whole process group if it
 * has not exited in time. Resolves once it has.
 */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), STOP_TIMEOUT_MS);
  });
  if ((await Promise.race([exited, late])) === "late") {
    signal(child, "SIGKILL");
    await exited;
  }
  clearTimeout(timer);
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    // The minus: the group, so whatever the agent started goes too.
    process.kill(-child.pid!, name);
  } catch {
    // The group is already gone.
  }
}
