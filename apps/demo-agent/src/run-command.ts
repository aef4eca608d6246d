import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type HookSources, setupDemoAgent } from "./demo-agent-setup.js";
import { registerCheckBeforeStop } from "./demo-hooks.js";
import { DEMO_SCENARIO, type ScenarioStep } from "./demo-scenario.js";
import { prepareDemoWorkspace } from "./demo-workspace.js";
import { EventTally } from "./event-tally.js";
import { onFiring } from "./firings.js";
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
}

export interface ScenarioResult {
  tally: EventTally;
  workdir: string;
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
  });
  const tally = new EventTally();
  const transcript = new Transcript(style, options.write);
  const stopHooks = registerCheckBeforeStop(demo.engine);
  const offTally = onFiring(demo.engine, (f) => tally.add(f));
  const offTranscript = onFiring(demo.engine, (f) => transcript.render(f));
  try {
    options.write(style.bold("A3S hooks demo: a scripted agent, every hook event, offline"));
    options.write(style.dim(`working directory: ${dir}`));
    for (const message of demo.messages) options.write(style.yellow(`! ${message}`));
    const session = await demo.agent.createSession({ workdir: dir });
    for (const step of options.steps ?? DEMO_SCENARIO) {
      transcript.note(step.caption);
      await demo.agent.respond(session, step.prompt);
    }
    transcript.note("The session ends");
    await demo.agent.endSession(session, "exit");
    options.write("");
    options.write(tally.render(style));
    return { tally, workdir: dir };
  } finally {
    offTranscript();
    offTally();
    for (const h of stopHooks) h.unregister();
    demo.close();
    if (temporary && !options.keep) await rm(dir, { recursive: true, force: true });
  }
}
