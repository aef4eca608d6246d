import { access, stat } from "node:fs/promises";
import path from "node:path";
import { type Approval, ApprovalError, type ApprovalStore } from "@a3s-lab/hooks-node/approvals";
import type { ParkedDecision } from "./agent.js";
import { AgentError } from "./agent-error.js";
import type { Reply } from "./agent-options.js";
import { type DemoAgent, type HookSources, setupDemoAgent } from "./demo-agent-setup.js";
import {
  decisionLine,
  decisionOf,
  isServerStore,
  openStore,
  type StoreLocation,
  shownLocation,
  waitingLines,
} from "./demo-approvals.js";
import { DEMO_DIR } from "./demo-workspace.js";
import { onFiring } from "./firings.js";
import type { Model } from "./model.js";
import { type ParkCall, type ParkedContext, readParkedContext } from "./parked-call.js";
import { setupScenarioAgent } from "./run-command.js";
import { createStyle, type Style } from "./style.js";
import { Transcript } from "./transcript.js";

/** `resume`'s exit code while the call still waits for a decision (and `--wait` was not given). */
export const STILL_WAITING = 3;

export interface ResumeOptions {
  /** The session whose parked calls to pick up. */
  sessionId: string;
  /** Only this approval of the session; every one decided and not yet resumed unless given. */
  approvalId?: string | undefined;
  store: StoreLocation;
  /** Wait for a decision instead of returning {@link STILL_WAITING}. */
  wait: boolean;
  write: (line: string) => void;
  color: boolean;
  /** Settings files on top of the ones the session's folder brings. */
  settingsFiles: readonly string[];
  auditFile?: string | undefined;
  eventsFile?: string | undefined;
  home?: string | undefined;
  hookSources?: HookSources | undefined;
  /** The model of a session `chat` parked (a `run` session plays the scripted model). */
  model?: Model | undefined;
  /** Who answers permission questions hooks leave open in a session `chat` parked. */
  permission?: "allow" | "deny" | undefined;
  /** Aborts a `--wait`. */
  signal?: AbortSignal | undefined;
}

/**
 * The `resume` command: find the session's parked calls in the store (or the one approval
 * asked for) and, in the order they were parked, resume each one a person (or the deadline)
 * decided: claim the resume (once: a second `resume` runs nothing and says so), restore the
 * session, finish its turn printing the transcript as `run` does, and record the resume as
 * finished. A call still pending: say so and, once the decided ones ran, return
 * {@link STILL_WAITING}; with `wait`, wait for its decision instead. A resume claimed before
 * and never finished (its process died part-way) is reported, never run again. Resolves with
 * the exit code.
 *
 * @example
 * ```ts
 * const code = await runResume({ sessionId, store: storeLocation(undefined, process.env, cwd),
 *   wait: false, write: console.log, color: false, settingsFiles: [] });
 * ```
 */
export async function runResume(options: ResumeOptions): Promise<number> {
  const style = createStyle(options.color);
  if (options.wait && !isServerStore(options.store.location)) {
    // The embedded store has one process at a time: while `resume` waited in it, nobody could
    // decide (`a3s-hooks approvals` would find it busy).
    throw new AgentError(
      "INVALID_INPUT",
      "--wait: the embedded store is open in one process at a time, so nobody could decide while resume waits in it; resume without --wait once the call is decided, or share a postgres:// store",
      { path: ["wait"] },
    );
  }
  const store = await openStore(options.store, { create: false });
  try {
    const chosen = await approvalsOf(store, options);
    for (const a of chosen) {
      if (a.resumedAt !== undefined && a.completedAt === undefined) {
        options.write(style.yellow(unfinishedLine(a)));
      }
    }
    const open = chosen.filter((a) => a.resumedAt === undefined);
    if (open.length === 0) {
      const last = chosen.at(-1) as Approval;
      if (last.completedAt !== undefined) options.write(`nothing to resume: ${resumedLine(last)}`);
      return 0;
    }
    let stillWaiting = false;
    for (const parked of open) {
      let approval = parked;
      if (approval.status === "pending") {
        const decide = `a3s-hooks approvals approve ${approval.id}`;
        if (!options.wait) {
          options.write(
            `still waiting for approval ${approval.id}: ${approval.toolName} (${approval.reason}); decide with ${decide} (or deny), or resume with --wait`,
          );
          stillWaiting = true;
          continue;
        }
        options.write(`waiting for a decision on approval ${approval.id} (${decide}) …`);
        approval = await store.waitForDecision(
          approval.id,
          options.signal ? { signal: options.signal } : {},
        );
      }
      await resumeOne(store, approval, options, style);
    }
    return stillWaiting ? STILL_WAITING : 0;
  } finally {
    await store.close();
  }
}

/**
 * The session's approvals `resume` looks at, oldest (first parked) first: all of them, or the
 * one asked for. Deadlines that passed are decided first.
 */
async function approvalsOf(store: ApprovalStore, options: ResumeOptions): Promise<Approval[]> {
  await store.expireDue();
  const all = await store.list({ sessionId: options.sessionId, limit: 1000 });
  if (all.length === 0) {
    throw new AgentError(
      "NOT_FOUND",
      `session: no parked calls for session ${options.sessionId} in ${shownLocation(options.store.location)}`,
      { path: ["session"] },
    );
  }
  if (options.approvalId === undefined) return all;
  const one = all.find((a) => a.id === options.approvalId);
  if (one === undefined) {
    throw new AgentError(
      "NOT_FOUND",
      `approval: session ${options.sessionId} has no approval ${options.approvalId}`,
      { path: ["approval"] },
    );
  }
  return [one];
}

function resumedLine(a: Approval): string {
  return `approval ${a.id} (${a.toolName}, ${a.status} by ${a.decidedBy}) was already resumed at ${a.resumedAt}`;
}

/** A resume claimed and never recorded as finished: what `resume` says instead of running it. */
function unfinishedLine(a: Approval): string {
  return `not resumed again: approval ${a.id} (${a.toolName}, ${a.status} by ${a.decidedBy}) was claimed at ${a.resumedAt} and never finished: the process resuming it stopped part-way (or still runs it). A call never runs twice, so it may or may not have run: check its effects, and run it yourself if it should.`;
}

/** Claim one decided approval, finish its turn, and record that it finished. */
async function resumeOne(
  store: ApprovalStore,
  found: Approval,
  options: ResumeOptions,
  style: Style,
): Promise<void> {
  const context = readParkedContext(found.context, found.id);
  if (context.sessionId !== options.sessionId) {
    throw new AgentError(
      "INVALID_INPUT",
      `approval ${found.id}: context.sessionId: ${JSON.stringify(context.sessionId)} is not the approval's session`,
      { path: ["context", "sessionId"] },
    );
  }
  const decision = decisionOf(found);
  await checkWorkdir(context.workdir);
  try {
    await store.claimResume(found.id);
  } catch (error) {
    if (!ApprovalError.isReason(error, "ALREADY_RESUMED")) throw error;
    // Another `resume` claimed it between our look and our claim: it runs the call, not us.
    options.write(`nothing to resume: ${error.message}`);
    return;
  }
  options.write(style.bold(decisionLine(found, decision)));
  const reply = await finishTurn(options, store, context, decision, style);
  await store.completeResume(found.id);
  if (reply.parked !== undefined) {
    for (const line of waitingLines(reply.parked, options.store, style)) options.write(line);
  }
}

async function checkWorkdir(workdir: string): Promise<void> {
  const info = await stat(workdir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new AgentError(
      "NOT_FOUND",
      `context.workdir: the session's folder ${workdir} is gone; the call cannot run there`,
      { path: ["context", "workdir"] },
    );
  }
}

/** Build the agent the session had, restore the session, and finish the turn. */
async function finishTurn(
  options: ResumeOptions,
  store: ApprovalStore,
  context: ParkedContext,
  decision: ParkedDecision,
  style: Style,
): Promise<Reply> {
  // A call of the finished turn a hook defers in its turn waits in the same store.
  const park: ParkCall = (request) => store.park(request);
  const built = await agentFor(context.workdir, options, park);
  const transcript = new Transcript(style, options.write);
  const off = onFiring(built.demo.engine, (f) => transcript.render(f));
  try {
    for (const message of built.demo.messages) options.write(style.yellow(`! ${message}`));
    const agent = built.demo.agent;
    const session = await agent.restoreSession(context);
    try {
      return await agent.resumeParked(session, context, decision);
    } finally {
      await agent.endSession(session, "exit");
    }
  } finally {
    off();
    built.close();
  }
}

/**
 * A session `run` parked lives in a demo workspace (its `.a3s-demo` folder): the agent is
 * `run`'s. Any other is `chat`'s: the folder's own settings, the given model and permission.
 */
async function agentFor(
  workdir: string,
  options: ResumeOptions,
  park: ParkCall,
): Promise<{ demo: DemoAgent; close(): void }> {
  const fromRun = await access(path.join(workdir, DEMO_DIR)).then(
    () => true,
    () => false,
  );
  if (fromRun) {
    return setupScenarioAgent(workdir, {
      auditFile: options.auditFile,
      eventsFile: options.eventsFile,
      settingsFiles: options.settingsFiles,
      home: options.home,
      hookSources: options.hookSources,
      park,
    });
  }
  const demo = await setupDemoAgent({
    workdir,
    model: options.model,
    permission: { defaultAnswer: options.permission ?? "deny" },
    auditFile: options.auditFile,
    eventsFile: options.eventsFile,
    settingsFiles: options.settingsFiles,
    home: options.home,
    hookSources: options.hookSources,
    park,
  });
  return { demo, close: () => demo.close() };
}
