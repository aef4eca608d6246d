import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AgentError } from "./agent-error.js";
import {
  type DemoAgent,
  type HookSources,
  type SettingsWatchListener,
  setupDemoAgent,
} from "./demo-agent-setup.js";
import { registerCheckBeforeStop } from "./demo-hooks.js";
import { DEMO_SCENARIO, type ScenarioStep } from "./demo-scenario.js";
import { prepareDemoWorkspace } from "./demo-workspace.js";
import { EventTally } from "./event-tally.js";
import { onFiring } from "./firings.js";
import type { ParkCall, ParkedCall } from "./parked-call.js";
import { createStyle } from "./style.js";
import { Transcript } from "./transcript.js";

export interface RunScenarioOptions {
  /** Where transcript lines go. */
  write: (line: string) => void;
  color: boolean;
  /** Play in this folder instead of a fresh temporary one (which is removed afterwards). */
  workdir?: string | undefined;
  /** Keep the temporary folder. */
  keep?: boolean | undefined;
  auditFile?: string | undefined;
  eventsFile?: string | undefined;
  /** Extra settings files, on top of the workspace's own. */
  settingsFiles?: readonly string[] | undefined;
  home?: string | undefined;
  hookSources?: HookSources | undefined;
  steps?: readonly ScenarioStep[] | undefined;
  /** Context window for the scenario; small, so a compaction happens. Default 900. */
  maxTokens?: number | undefined;
  /**
   * Where a call a hook defers is parked, and the lines that say it waits. A parked call ends
   * the scenario there (the rest of the session waits with it) and keeps the folder.
   */
  approvals?: ScenarioApprovals | undefined;
}

/** How `run` parks deferred calls. */
export interface ScenarioApprovals {
  park: ParkCall;
  waitingLines(parked: ParkedCall): string[];
}

/** What {@link setupScenarioAgent} needs: `run`'s options about hooks and logs. */
export type ScenarioSetupOptions = Pick<
  RunScenarioOptions,
  "auditFile" | "eventsFile" | "settingsFiles" | "home" | "hookSources" | "maxTokens"
> & {
  park?: ParkCall | undefined;
  watchSettings?: SettingsWatchListener | undefined;
};

/**
 * The agent `run` plays with, in a folder the scenario filled (or fills now): the demo's own
 * settings file and skills, the demo hooks, the check-before-stop Stop hook, and permission
 * questions answered "allow" (nobody is at a prompt). `resume` builds the same agent to finish a
 * turn `run` parked. `close` undoes it all.
 */
export async function setupScenarioAgent(
  dir: string,
  options: ScenarioSetupOptions,
): Promise<{ demo: DemoAgent; close(): void }> {
  const workspace = await prepareDemoWorkspace(dir);
  const demo = await setupDemoAgent({
    workdir: dir,
    // Nobody is at a prompt: questions hooks leave open get the default answer.
    permission: { defaultAnswer: "allow" },
    budget: { maxTokens: options.maxTokens ?? 900, warnAt: 0.5, compactAt: 0.8 },
    auditFile: options.auditFile,
    auditLevel: "verbose",
    eventsFile: options.eventsFile,
    settingsFiles: [workspace.settingsFile, ...(options.settingsFiles ?? [])],
    skillsDirs: [workspace.skillsDir],
    home: options.home,
    hookSources: options.hookSources,
    watchSettings: options.watchSettings,
    park: options.park,
  });
  const stopHooks = registerCheckBeforeStop(demo.engine);
  return {
    demo,
    close() {
      for (const h of stopHooks) h.unregister();
      demo.close();
    },
  };
}

/** How long a step that changes a settings file waits for the agent to take the change in. */
const SETTINGS_WAIT_MS = 10_000;

/**
 * The lines the settings watcher reports, and a way to wait for the next decision on a change
 * (taken in or refused). A notice about the watching itself (paused by a storm of file events on
 * a busy machine) is shown but decides nothing: the change is still to come, from a re-check.
 */
class SettingsNews {
  #decided = 0;
  #listener: ((line: string) => void) | undefined;
  #wake: (() => void) | undefined;

  /** How many decisions so far. */
  get count(): number {
    return this.#decided;
  }

  add(line: string, decided: boolean): void {
    if (decided) this.#decided++;
    this.#listener?.(line);
    this.#wake?.();
  }

  on(listener: (line: string) => void): () => void {
    this.#listener = listener;
    return () => {
      this.#listener = undefined;
    };
  }

  /** Resolves once there are more than `seen` decisions, or after `ms` (the change went unseen). */
  after(seen: number, ms: number): Promise<void> {
    if (this.#decided > seen) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        if (this.#decided > seen) {
          this.#wake = undefined;
          done();
        }
      };
    });
  }
}

export interface ScenarioResult {
  tally: EventTally;
  workdir: string;
  /** Set when a hook deferred a call and it was parked: the scenario stopped there. */
  parked?: ParkedCall;
}

/**
 * The `run` command: play the scripted scenario in a working directory, print the transcript,
 * then the table of events fired and decisions taken.
 *
 * @example
 * ```ts
 * await runScenario({ write: (l) => console.log(l), color: false });
 * ```
 */
export async function runScenario(options: RunScenarioOptions): Promise<ScenarioResult> {
  const style = createStyle(options.color);
  const temporary = options.workdir === undefined;
  let dir: string;
  if (options.workdir === undefined) {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "a3s-demo-")));
  } else {
    await mkdir(options.workdir, { recursive: true });
    dir = await realpath(options.workdir);
  }
  const settingsNews = new SettingsNews();
  const { demo, close } = await setupScenarioAgent(dir, {
    ...options,
    park: options.approvals?.park,
    watchSettings: (line, decided) => settingsNews.add(line, decided),
  });
  const tally = new EventTally();
  const transcript = new Transcript(style, options.write);
  // The settings watcher works on its own time, so its ConfigChange and its report can come in
  // the middle of a turn. They are held while a turn prints and shown after it, so the
  // transcript reads the same on a fast machine and a loaded one.
  let held: string[] | undefined;
  const outOfTurn = (line: string) => (held ? held.push(line) : options.write(line));
  const watcherTranscript = new Transcript(style, outOfTurn);
  let parked: ParkedCall | undefined;
  const offTally = onFiring(demo.engine, (f) => tally.add(f));
  const offTranscript = onFiring(demo.engine, (f) =>
    (f.event.eventType === "ConfigChange" ? watcherTranscript : transcript).render(f),
  );
  try {
    options.write(style.bold("A3S hooks demo: a scripted agent, every hook event, offline"));
    options.write(style.dim(`working directory: ${dir}`));
    for (const message of demo.messages) options.write(style.yellow(`! ${message}`));
    const session = await demo.agent.createSession({ workdir: dir });
    const news = settingsNews.on((line) => outOfTurn(style.dim(`  ${line}`)));
    for (const step of options.steps ?? DEMO_SCENARIO) {
      transcript.note(step.caption);
      const seen = settingsNews.count;
      held = [];
      try {
        parked = (await demo.agent.respond(session, step.prompt)).parked;
      } catch (error) {
        // A failed model call ends the turn (StopFailure fired, and shown); the scenario goes on.
        if (!AgentError.is(error, "MODEL_ERROR")) throw error;
      } finally {
        const lines = held;
        held = undefined;
        for (const line of lines) options.write(line);
      }
      if (parked !== undefined) break;
      if (step.changesSettings) await settingsNews.after(seen, SETTINGS_WAIT_MS);
    }
    news();
    if (parked !== undefined) {
      // The session waits for a person; `resume` picks it up in this folder, which stays.
      for (const line of options.approvals?.waitingLines(parked) ?? []) options.write(line);
      await demo.agent.endSession(session, "exit");
      return { tally, workdir: dir, parked };
    }
    transcript.note("The session ends");
    await demo.agent.endSession(session, "exit");
    options.write("");
    options.write(tally.render(style));
    return { tally, workdir: dir };
  } finally {
    offTranscript();
    offTally();
    close();
    if (temporary && !options.keep && parked === undefined)
      await rm(dir, { recursive: true, force: true });
  }
}
