import { type AuditLevel, HookEngine, type PermissionStepOptions } from "@a3s-lab/hooks-core";
import { Agent } from "./agent.js";
import { hookLimitsFromEnv, type SessionEnv } from "./agent-options.js";
import type { ContextBudgetOptions } from "./context-budget.js";
import { defineDemoEvents } from "./demo-events.js";
import { registerDemoHooks } from "./demo-hooks.js";
import { attachAuditLog, attachEventLog } from "./event-log.js";
import { DEMO_ENGINE_AUDIT_LEVEL } from "./firings.js";
import type { Model } from "./model.js";
import type { ParkCall } from "./parked-call.js";
import { ScriptedModel } from "./scripted-model.js";
import { type SkillHookInstaller, SkillManager } from "./skill-manager.js";
import { builtinTools } from "./tools/builtin-tools.js";
import { toolSchemasOf } from "./tools/tool.js";

/**
 * One line of news from the settings watcher. `decided` is true when a change of the files was
 * taken in or refused, false for news about the watching itself (paused by a storm of file
 * events, or failing): a step that edits a settings file waits for a decided line.
 */
export type SettingsWatchListener = (line: string, decided: boolean) => void;

/** Where hooks other than in-process ones come from (settings files, skill frontmatter). */
export interface HookSources {
  /**
   * Register the hooks of the settings files (working directory, home, explicit files).
   * `model` is the agent's, for `prompt` and `agent` hooks. Returns the way to remove them and
   * lines worth showing the user (problems, untrusted hooks). With `watch`, keeps them current
   * as the files change, calling `watch` with one line per reload, refused reload, or notice
   * about the watching itself.
   */
  applySettings?(
    engine: HookEngine,
    where: {
      cwd: string;
      home?: string | undefined;
      files: readonly string[];
      model: Model;
      watch?: SettingsWatchListener | undefined;
      /** The session a settings change concerns (its ConfigChange carries the id). */
      sessionId?: (() => string) | undefined;
    },
  ): Promise<{ unregister(): void; messages: string[] }>;
  /** Register the hooks a skill's frontmatter declares. */
  installSkillHooks?: SkillHookInstaller;
  /** Each session's `CLAUDE_ENV_FILE`, which SessionStart hooks write and Bash commands apply. */
  sessionEnv?: SessionEnv;
}

export interface DemoAgentOptions {
  /** Where settings files are looked up (the project) and where skills live by default. */
  workdir: string;
  model?: Model | undefined;
  permission?: PermissionStepOptions | undefined;
  budget?: ContextBudgetOptions | undefined;
  /** Default: `<workdir>/.a3s/skills`. */
  skillsDirs?: readonly string[] | undefined;
  /** Write the engine's audit records here as JSON lines. */
  auditFile?: string | undefined;
  auditLevel?: AuditLevel | undefined;
  /** Write every firing (event + decision) here as JSON lines. */
  eventsFile?: string | undefined;
  /** Explicit settings files (always trusted). */
  settingsFiles?: readonly string[] | undefined;
  /** Home folder for the user's settings files. Default: the user's. */
  home?: string | undefined;
  /**
   * Keep the settings files' hooks current while the agent runs (`serve`, `chat`): each reload,
   * each edit refused because it broke a file, and each notice about the watching itself is
   * reported as one line here.
   */
  watchSettings?: SettingsWatchListener | undefined;
  hookSources?: HookSources | undefined;
  /** Register the demo's in-process hooks. Default true. */
  demoHooks?: boolean;
  /**
   * Where Claude Code's `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` and
   * `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS` are read. Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Where deferred tool calls are parked (see `AgentOptions.park`). */
  park?: ParkCall | undefined;
}

/** An agent with its hook sources attached, and the way to detach them. */
export interface DemoAgent {
  agent: Agent;
  engine: HookEngine;
  /** Lines to show the user: settings problems, untrusted hooks, … */
  messages: string[];
  close(): void;
}

/**
 * Build the demo agent with all three kinds of hooks: the in-process demo hooks, the
 * settings files' command hooks, and (in `serve`) remote SDK hooks, which the hook server
 * registers on the same engine. Attaches the audit and event logs.
 *
 * @example
 * ```ts
 * const demo = await setupDemoAgent({ workdir: process.cwd(), eventsFile: "events.jsonl" });
 * const session = await demo.agent.createSession({ workdir: process.cwd() });
 * ```
 */
export async function setupDemoAgent(options: DemoAgentOptions): Promise<DemoAgent> {
  // Before the settings load, so their hooks for these events are not "unknown event".
  defineDemoEvents();
  const engine = new HookEngine({
    auditLevel: DEMO_ENGINE_AUDIT_LEVEL,
    toolSchemas: toolSchemasOf(builtinTools),
    // Three sources of hooks share the engine under core's default limits (10 per event, 50 in all).
    ...(options.auditLevel !== undefined ? { auditLevel: options.auditLevel } : {}),
  });
  const undo: (() => void)[] = [];
  const close = () => {
    for (const fn of undo.splice(0).reverse()) fn();
  };
  try {
    if (options.auditFile) undo.push(attachAuditLog(engine, options.auditFile, options.auditLevel));
    if (options.eventsFile) undo.push(attachEventLog(engine, options.eventsFile));
    if (options.demoHooks !== false) {
      const handles = registerDemoHooks(engine);
      undo.push(() => {
        for (const h of handles) h.unregister();
      });
    }
    const messages: string[] = [];
    let agentRef: Agent | undefined;
    const model = options.model ?? new ScriptedModel();
    const sources = options.hookSources;
    if (sources?.applySettings) {
      const applied = await sources.applySettings(engine, {
        cwd: options.workdir,
        home: options.home,
        files: options.settingsFiles ?? [],
        model,
        watch: options.watchSettings,
        // The latest live session: a settings change concerns the agent, not one session.
        sessionId: () => agentRef?.sessions.at(-1)?.id ?? "",
      });
      undo.push(() => applied.unregister());
      messages.push(...applied.messages);
    }
    const skills = new SkillManager({
      dirs: options.skillsDirs ?? [`${options.workdir}/.a3s/skills`],
      installHooks: sources?.installSkillHooks,
    });
    const agent = new Agent({
      engine,
      skills,
      model,
      ...(options.permission ? { permission: options.permission } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(sources?.sessionEnv ? { sessionEnv: sources.sessionEnv } : {}),
      ...(options.park ? { park: options.park } : {}),
      ...hookLimitsFromEnv(options.env ?? process.env),
    });
    agentRef = agent;
    if (sources?.sessionEnv) {
      const env = sources.sessionEnv;
      undo.push(() => void env.close());
    }
    return { agent, engine, messages, close };
  } catch (error) {
    close();
    throw error;
  }
}
