import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  createEvent,
  HookEngine,
  HookError,
  type PermissionStep,
  type TokenUsage,
  type ToolArgs,
  type ToolCall,
} from "@a3s-lab/hooks-core";
import { randomId } from "@a3s-lab/hooks-core/internal";
import * as z from "zod";
import { AgentError } from "./agent-error.js";
import { type LoopDeps, type LoopResult, runLoop, runToolCalls } from "./agent-loop.js";
import type {
  AgentOptions,
  CreateSessionOptions,
  ProgressUpdate,
  Reply,
  RespondOptions,
  SessionEnv,
} from "./agent-options.js";
import type { Compaction } from "./compact-messages.js";
import { ContextBudget } from "./context-budget.js";
import { ContextManager } from "./context-manager.js";
import { defineDemoEvents } from "./demo-events.js";
import { DEMO_ENGINE_AUDIT_LEVEL } from "./firings.js";
import { readInstructions } from "./instructions-file.js";
import type { Model, ToolSpec } from "./model.js";
import type { ParkCall, ParkedContext } from "./parked-call.js";
import { demoPermissionStep } from "./permission-policy.js";
import { runSubagent } from "./run-subagent.js";
import { ScriptedModel } from "./scripted-model.js";
import { Session } from "./session.js";
import type { SkillManager } from "./skill-manager.js";
import {
  executeToolCall,
  fireNotification,
  type ToolCallDeps,
  type ToolCallOutcome,
} from "./tool-call.js";
import { builtinTools } from "./tools/builtin-tools.js";
import { type Tool, type ToolContext, toolSchemasOf } from "./tools/tool.js";
import { WatchBudget, type WatchedChange, WatchPaths } from "./watch-paths.js";
import { isInside } from "./workspace-path.js";

const DEFAULT_SYSTEM_PROMPT =
  "You are the A3S demo agent. Use the tools to work inside the working directory; answer briefly.";

/**
 * A small, real agent loop: session → prompt → generation → tool calls → … → final answer →
 * Stop, firing every hook event of the catalogue where it belongs.
 *
 * @example
 * ```ts
 * const agent = new Agent();
 * agent.engine.register({ event: "PreToolUse", matcher: "Bash", handler: (e) =>
 *   String(e.args.command).includes("rm -rf") ? block("not here") : undefined });
 * const session = await agent.createSession({ workdir: process.cwd() });
 * const reply = await agent.respond(session, "bash: ls");
 * await agent.endSession(session, "exit");
 * ```
 */
export class Agent {
  readonly engine: HookEngine;
  readonly model: Model;
  readonly budget: ContextBudget;
  /** The permission step every tool call goes through. */
  readonly permission: PermissionStep;
  readonly skills: SkillManager | undefined;
  readonly systemPrompt: string;
  readonly maxStopContinuations: number;
  readonly sessionEndTimeoutMs: number;
  readonly maxSteps: number;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #specs: readonly ToolSpec[];
  readonly #sessions = new Map<string, Session>();
  /** Each session's files watched for hooks' `watchPaths`; closed with the session. */
  readonly #watches = new Map<string, WatchPaths>();
  readonly #deps: ToolCallDeps;
  readonly #context: ContextManager;
  #subagents = 0;
  readonly #sessionEnv: SessionEnv | undefined;
  readonly #onWatchSkipped: AgentOptions["onWatchSkipped"];
  readonly #watchBudget: WatchBudget;
  /** Who each session's watches are charged to. */
  readonly #owners = new Map<string, string>();
  readonly #park: ParkCall | undefined;

  constructor(options: AgentOptions = {}) {
    defineDemoEvents();
    const tools = options.tools ?? builtinTools;
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#specs = tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: z.toJSONSchema(t.inputSchema, { io: "input" }) as Record<string, unknown>,
    }));
    this.engine =
      options.engine ??
      new HookEngine({ toolSchemas: toolSchemasOf(tools), auditLevel: DEMO_ENGINE_AUDIT_LEVEL });
    this.model = options.model ?? new ScriptedModel();
    this.budget =
      options.budget instanceof ContextBudget ? options.budget : new ContextBudget(options.budget);
    this.permission = demoPermissionStep(tools, options.permission);
    this.skills = options.skills;
    this.systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
    this.maxStopContinuations = wholeNumber(
      options.maxStopContinuations ?? 8,
      "maxStopContinuations",
    );
    this.sessionEndTimeoutMs = wholeNumber(
      options.sessionEndTimeoutMs ?? 1500,
      "sessionEndTimeoutMs",
      1,
    );
    this.maxSteps = options.maxSteps ?? 25;
    this.#sessionEnv = options.sessionEnv;
    this.#onWatchSkipped = options.onWatchSkipped;
    this.#watchBudget = options.watchBudget ?? new WatchBudget();
    this.#park = options.park;
    this.#deps = {
      engine: this.engine,
      tools: this.#tools,
      permission: this.permission,
      maxRetries: options.maxToolRetries ?? 3,
      notify: (session, type, message, level) =>
        fireNotification(this.engine, session, type, message, level),
    };
    this.#context = new ContextManager({
      engine: this.engine,
      budget: this.budget,
      systemPrompt: this.systemPrompt,
      notify: this.#deps.notify,
    });
  }

  /** Start a session: SessionStart fires (a hook may refuse it, or add context and metadata). */
  async createSession(options: CreateSessionOptions): Promise<Session> {
    const id = options.id ?? randomId();
    if (this.#sessions.has(id)) {
      throw new AgentError("INVALID_INPUT", `id: a session ${JSON.stringify(id)} already exists`, {
        path: ["id"],
      });
    }
    await this.#sessionEnv?.create(id);
    const start = await this.engine.fire(
      createEvent("SessionStart", {
        sessionId: id,
        source: options.source ?? "startup",
        workingDirectory: options.workdir,
        model: this.model.config,
        metadata: options.metadata ?? {},
      }),
    );
    await this.#sessionEnv?.seal(id);
    if (start.action === "block") {
      await this.#sessionEnv?.remove(id);
      throw new AgentError("BLOCKED", `session refused by a hook: ${start.reason}`);
    }
    const session = new Session({ id, workdir: options.workdir, metadata: start.event.metadata });
    if (start.additionalContext)
      session.messages.push({ role: "system", content: start.additionalContext });
    this.#sessions.set(id, session);
    this.#owners.set(id, options.owner ?? "local");
    await this.#watch(session, start.event.watchPaths);
    await this.#loadInstructions(session);
    return session;
  }

  /** A live session by id, or `NOT_FOUND`. */
  getSession(id: string): Session {
    const session = this.#sessions.get(id);
    if (!session)
      throw new AgentError("NOT_FOUND", `no session ${JSON.stringify(id)}`, {
        path: ["sessionId"],
      });
    return session;
  }

  /** The live sessions. */
  get sessions(): Session[] {
    return [...this.#sessions.values()];
  }

  /**
   * End a session: its skills unload, then SessionEnd fires, its hooks given
   * `sessionEndTimeoutMs` all together; past that they are stopped, with a warning. Ending
   * twice is a no-op.
   */
  async endSession(session: Session, reason = "exit"): Promise<void> {
    if (session.ended) return;
    session.ended = true;
    this.#sessions.delete(session.id);
    await this.#watches.get(session.id)?.close();
    this.#watches.delete(session.id);
    this.#owners.delete(session.id);
    await this.skills?.unloadAll(this.engine, session);
    const budget = AbortSignal.timeout(this.sessionEndTimeoutMs);
    try {
      await this.engine.fire(createEvent("SessionEnd", { sessionId: session.id, reason }), {
        signal: budget,
      });
    } catch (error) {
      if (!HookError.is(error, "ABORTED") || !budget.aborted) throw error;
      await this.#deps.notify(
        session,
        "status",
        `SessionEnd hooks did not finish within ${this.sessionEndTimeoutMs} ms; they were stopped`,
        "warning",
      );
    }
    await this.#sessionEnv?.remove(session.id);
  }

  /**
   * Answer one user prompt: UserPromptSubmit (may block or rewrite it), the generation and
   * tool loop, then Stop (a blocking Stop hook makes the agent continue with its reason, at
   * most `maxStopContinuations` times in a row). Skills loaded during the response unload at
   * its end.
   */
  async respond(session: Session, prompt: string, options: RespondOptions = {}): Promise<Reply> {
    if (typeof prompt !== "string") {
      throw new AgentError("INVALID_INPUT", "prompt: expected a string", { path: ["prompt"] });
    }
    if (session.ended)
      throw new AgentError("NOT_FOUND", `session ${session.id} has ended`, { path: ["sessionId"] });
    if (session.busy) {
      throw new AgentError("INVALID_INPUT", `session ${session.id} is already answering a prompt`, {
        path: ["sessionId"],
      });
    }
    session.busy = true;
    const before = { ...session.usage };
    try {
      const submit = await this.engine.fire(
        createEvent("UserPromptSubmit", { sessionId: session.id, prompt }),
      );
      if (submit.stopTurn) {
        return {
          text: "",
          stopped: reasonOf(submit.stopTurn.reason),
          stopContinuations: 0,
          usage: usageSince(session, before),
        };
      }
      if (submit.action === "block") {
        return {
          text: "",
          blocked: submit.reason ?? "blocked",
          stopContinuations: 0,
          usage: usageSince(session, before),
        };
      }
      if (submit.additionalContext)
        session.messages.push({ role: "system", content: submit.additionalContext });
      session.messages.push({ role: "user", content: submit.event.prompt });

      const result = await this.#loopOrStopFailure(session, options);
      return await this.#finishTurn(session, result, before, options);
    } finally {
      await this.skills?.unloadAll(this.engine, session);
      session.busy = false;
    }
  }

  /**
   * Start a session again from a parked call's saved context: SessionStart fires with source
   * `resume`, then the conversation, the shell's folder, recent tools and usage are restored.
   * The session keeps its id, so its events read as one conversation.
   */
  async restoreSession(context: ParkedContext): Promise<Session> {
    const session = await this.createSession({
      id: context.sessionId,
      workdir: context.workdir,
      source: "resume",
      metadata: context.metadata,
    });
    session.messages = structuredClone(context.messages);
    const cwd = await realpath(context.cwd).catch(() => undefined);
    if (cwd !== undefined && isInside(await realpath(context.workdir), cwd)) session.cwd = cwd;
    session.recentTools.push(...context.recentTools.slice(-10));
    session.addUsage(context.usage);
    return session;
  }

  /**
   * Finish the turn a parked call interrupted, once a person (or the deadline) decided it.
   * Allowed: the call runs through every tool hook point, on the decider's edited input if they
   * gave one; PreToolUse fires again, and a `defer` this time is answered by the recorded
   * decision (a block still blocks), as is a permission question hooks leave open. Denied: the
   * call does not run, PermissionDenied fires with the decider's reason, and the model reads the
   * denial. Then the calls of the same step after it run, and the loop goes on to the end of the
   * turn (Stop included), as {@link respond} would have.
   */
  async resumeParked(
    session: Session,
    context: ParkedContext,
    decision: ParkedDecision,
    options: RespondOptions = {},
  ): Promise<Reply> {
    if (session.ended)
      throw new AgentError("NOT_FOUND", `session ${session.id} has ended`, { path: ["sessionId"] });
    if (session.busy) {
      throw new AgentError("INVALID_INPUT", `session ${session.id} is already answering a prompt`, {
        path: ["sessionId"],
      });
    }
    session.busy = true;
    const before = { ...session.usage };
    try {
      const deps = this.#loopDeps(session);
      const audit = approvalAudit(this.engine, session, context.call, decision);
      audit?.decided();
      let ran: LoopResult | undefined;
      if (decision.status === "allowed") {
        const call =
          decision.editedInput === undefined
            ? context.call
            : { ...context.call, args: decision.editedInput };
        const onProgress = (update: ProgressUpdate) => {
          if (update.kind === "tool_result" && update.toolUseId === call.id) {
            audit?.resumed(
              update.status === "ok" || update.status === "failed" ? "ran" : "blocked",
            );
          }
          options.onProgress?.(update);
        };
        const first = { ...options, onProgress };
        ran = await runToolCalls(deps, session, [call, ...context.rest], context.text, first, {
          deferAnsweredBy: decision.decidedBy,
          permission: demoPermissionStep(this.#tools.values(), { defaultAnswer: () => "allow" }),
        });
      } else {
        const output = await this.#denyParked(session, context.call, decision);
        audit?.resumed("denied");
        session.messages.push({ role: "tool", content: output, toolCallId: context.call.id });
        ran = await runToolCalls(deps, session, context.rest, context.text, options);
      }
      const result = ran ?? (await this.#loopOrStopFailure(session, options));
      return await this.#finishTurn(session, result, before, options);
    } finally {
      await this.skills?.unloadAll(this.engine, session);
      session.busy = false;
    }
  }

  /** A denied parked call: PermissionDenied fires with the decider's reason; the model's result. */
  async #denyParked(session: Session, call: ToolCall, decision: ParkedDecision): Promise<string> {
    const who = decision.byDeadline ? "the deadline" : decision.decidedBy;
    const reason = `denied by ${who}${decision.reason ? `: ${decision.reason}` : ""}`;
    const told = await this.engine.fire(
      createEvent("PermissionDenied", {
        sessionId: session.id,
        tool: call.name,
        toolUseId: call.id,
        args: call.args,
        decidedBy: decision.byDeadline ? "default" : "user",
        reason,
        metadata: session.eventMetadata(),
      }),
    );
    const retry =
      (told.event as { retry?: unknown }).retry === true
        ? "\n[hook] You may retry this tool call."
        : "";
    return `Error: permission denied for ${call.name}: ${reason}${retry}`;
  }

  /**
   * Run one tool on behalf of a caller outside the model (the SDK's `executeTool`): the same
   * hooks and permission flow as a model's call. It may run while a response is in progress
   * (the auto-format example's hook calls it from PostToolUse). A skill it loads stays loaded
   * until the next response ends, or the session.
   */
  async executeTool(
    session: Session,
    tool: string,
    args: ToolArgs,
    signal?: AbortSignal,
  ): Promise<ToolCallOutcome> {
    if (session.ended)
      throw new AgentError("NOT_FOUND", `session ${session.id} has ended`, { path: ["sessionId"] });
    return executeToolCall(
      this.#deps,
      session,
      { id: `exec_${randomId()}`, name: tool, args },
      this.#toolContext(session, signal, true),
    );
  }

  /**
   * Compact a session's history: PreCompact (a hook may refuse), the compaction, PostCompact.
   * Returns undefined when refused or when there is nothing to compact.
   */
  compact(
    session: Session,
    trigger: "manual" | "auto" = "manual",
    instructions?: string,
  ): Promise<Compaction | undefined> {
    return this.#context.compact(session, trigger, instructions);
  }

  /** The working directory's CLAUDE.md (or AGENTS.md) into the context: InstructionsLoaded. */
  async #loadInstructions(session: Session): Promise<void> {
    const found = await readInstructions(session.workdir);
    if (found === undefined) return;
    if ("problem" in found) {
      await this.#deps.notify(
        session,
        "instructions",
        `${path.basename(found.file)} not read: ${found.problem}`,
        "warning",
      );
      return;
    }
    session.messages.push({ role: "system", content: found.text });
    await this.engine.fire(
      createEvent("InstructionsLoaded", {
        sessionId: session.id,
        filePath: found.file,
        memoryType: "Project",
        loadReason: "session_start",
      }),
    );
  }

  /**
   * The end of a turn: while a Stop hook asks the agent to go on (at most
   * `maxStopContinuations` times in a row), one more loop; then the reply. A turn a hook stopped
   * (or a parked call) ends at once, no Stop fired.
   */
  async #finishTurn(
    session: Session,
    first: LoopResult,
    before: TokenUsage,
    options: RespondOptions,
  ): Promise<Reply> {
    let result = first;
    let continuations = 0;
    // A turn a hook stopped (`continue: false`) ends here: no Stop hook asks it to go on.
    for (; result.stopped === undefined; ) {
      const stop = await this.engine.fire(
        createEvent("Stop", {
          sessionId: session.id,
          stopHookActive: continuations > 0,
          responseText: result.text,
          ...(result.blocked !== undefined ? { reason: result.blocked } : {}),
        }),
      );
      if (stop.stopTurn) {
        result = { ...result, stopped: reasonOf(stop.stopTurn.reason) };
        break;
      }
      // A block's reason, or (the Agent SDK's StopHookSpecificOutput) context without a block:
      // feedback for the model, which goes on to act on it.
      const goOn = stop.action === "block" ? stop.reason : stop.additionalContext;
      if (goOn === undefined) break;
      if (continuations >= this.maxStopContinuations) {
        await this.#deps.notify(
          session,
          "status",
          `a Stop hook asked to continue ${continuations + 1} times in a row; stopping anyway`,
          "warning",
        );
        break;
      }
      continuations++;
      session.messages.push({ role: "user", content: `Stop hook: ${goOn}` });
      result = await this.#loopOrStopFailure(session, options);
    }
    return {
      text: result.text,
      ...(result.blocked !== undefined ? { blocked: result.blocked } : {}),
      ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
      ...(result.parked !== undefined ? { parked: result.parked } : {}),
      stopContinuations: continuations,
      usage: usageSince(session, before),
    };
  }

  /** The loop; a turn that ends because the model call failed fires StopFailure (not Stop). */
  async #loopOrStopFailure(session: Session, options: RespondOptions): Promise<LoopResult> {
    try {
      return await this.#loop(session, options);
    } catch (error) {
      const e = AgentError.from(error);
      if (e.code === "MODEL_ERROR") {
        const last = session.messages.findLast((m) => m.role === "assistant")?.content;
        await this.engine.fire(
          createEvent("StopFailure", {
            sessionId: session.id,
            error: modelErrorType(e),
            errorDetails: e.message,
            ...(last ? { lastAssistantMessage: last } : {}),
          }),
        );
      }
      throw error;
    }
  }

  /** `cd DIR` in Bash: the session's shell moves (inside the working directory): CwdChanged. */
  async #changeCwd(session: Session, dir: string): Promise<string> {
    const field = { path: ["args", "command"] };
    const target = await realpath(path.resolve(session.cwd, dir)).catch(() => {
      throw new AgentError("NOT_FOUND", `cd: no such folder ${JSON.stringify(dir)}`, field);
    });
    if (!isInside(await realpath(session.workdir), target)) {
      throw new AgentError(
        "OUTSIDE_WORKSPACE",
        `cd: ${JSON.stringify(dir)} is outside the working directory`,
        field,
      );
    }
    if (!(await stat(target)).isDirectory()) {
      throw new AgentError("NOT_FOUND", `cd: ${JSON.stringify(dir)} is not a folder`, field);
    }
    const oldCwd = session.cwd;
    session.cwd = target;
    if (oldCwd !== target) {
      const changed = await this.engine.fire(
        createEvent("CwdChanged", {
          sessionId: session.id,
          oldCwd,
          newCwd: target,
          metadata: session.eventMetadata(),
        }),
      );
      await this.#sessionEnv?.seal(session.id);
      await this.#watch(session, changed.event.watchPaths);
    }
    return target;
  }

  /** A file tool changed a file: FileChanged, when a FileChanged hook's matcher names it. */
  async #fileChanged(session: Session, file: string, event: "add" | "change"): Promise<void> {
    const fileName = path.basename(file);
    // Claude Code's FileChanged matchers are lists of file names: the files worth watching.
    const watched = this.engine
      .list({ event: "FileChanged" })
      .some((h) => h.matcher === "*" || h.matcher.split("|").includes(fileName));
    if (!watched) return;
    await this.#fireFileChanged(session, file, event);
  }

  /** FileChanged for `file`; the paths its hooks answer are watched too. */
  async #fireFileChanged(session: Session, file: string, event: WatchedChange): Promise<void> {
    const changed = await this.engine.fire(
      createEvent("FileChanged", {
        sessionId: session.id,
        filePath: file,
        fileName: path.basename(file),
        event,
        metadata: session.eventMetadata(),
      }),
    );
    await this.#sessionEnv?.seal(session.id);
    await this.#watch(session, changed.event.watchPaths);
  }

  /**
   * Watch the paths a SessionStart, CwdChanged or FileChanged hook answered (`watchPaths`):
   * a change from outside the agent fires FileChanged, as in Claude Code.
   */
  async #watch(session: Session, paths: readonly string[] | undefined): Promise<void> {
    if (paths === undefined || paths.length === 0 || session.ended) return;
    let watch = this.#watches.get(session.id);
    if (watch === undefined) {
      const onSkipped = this.#onWatchSkipped;
      watch = new WatchPaths(
        (file, change) => {
          // A firing that fails (the engine closed as the session ends) must not crash the agent.
          this.#fireFileChanged(session, file, change).catch(() => {});
        },
        {
          onSkipped: onSkipped && ((file, change) => onSkipped(session.id, file, change)),
          budget: this.#watchBudget,
          owner: this.#owners.get(session.id),
          // A Notification, as for the other limits the agent applies on its own.
          onLimit: (message) => {
            this.#deps.notify(session, "status", message, "warning").catch(() => {});
          },
        },
      );
      this.#watches.set(session.id, watch);
    }
    await watch.add(paths);
  }

  /** Generations and tool calls until the model answers without tool calls. */
  #loop(session: Session, options: RespondOptions): Promise<LoopResult> {
    return runLoop(this.#loopDeps(session), session, options);
  }

  /** What the loop needs for one session. */
  #loopDeps(session: Session): LoopDeps {
    const topLevel = session.subagentId === undefined;
    return {
      ...this.#deps,
      model: this.model,
      systemPrompt: this.systemPrompt,
      context: this.#context,
      maxSteps: this.maxSteps,
      // Subagents get neither Task (no subagents of subagents) nor Skill.
      offered: topLevel
        ? this.#specs
        : this.#specs.filter((s) => s.name !== "Task" && s.name !== "Skill"),
      toolContext: (signal) => this.#toolContext(session, signal, topLevel),
      // A subagent's deferred call stops its own loop; only a session's own calls are parked.
      park: topLevel ? this.#park : undefined,
    };
  }

  #toolContext(session: Session, signal: AbortSignal | undefined, topLevel: boolean): ToolContext {
    const env = this.#sessionEnv;
    return {
      workdir: session.workdir,
      cwd: session.cwd,
      changeCwd: (dir) => this.#changeCwd(session, dir),
      fileChanged: (file, event) => this.#fileChanged(session, file, event),
      ownWrite: async (file, write) => {
        const watch = this.#watches.get(session.id);
        if (watch) await watch.ownWrite(file, write);
        else await write();
      },
      signal,
      // A subagent's session carries its parent's id: it sees the same env file.
      sessionEnv: env ? () => env.read(session.id) : undefined,
      runSubagent: topLevel
        ? (request) =>
            runSubagent(
              {
                engine: this.engine,
                nextId: () => `subagent-${++this.#subagents}`,
                loop: (child) => this.#loop(child, signal ? { signal } : {}),
              },
              session,
              request,
            )
        : undefined,
      loadSkill:
        topLevel && this.skills
          ? async (name) => {
              const { skill, hooks } = await this.skills!.load(this.engine, session, name);
              const notes = hooks?.notes?.length ? `\n${hooks.notes.join("\n")}` : "";
              return `Skill ${skill.name} loaded until this response ends.${notes}\n${skill.body}`;
            }
          : undefined,
    };
  }
}

/**
 * The audit records of a resumed approval: who decided (or that the deadline did), then what
 * became of the call. Undefined when the decision does not name its approval.
 */
function approvalAudit(
  engine: HookEngine,
  session: Session,
  call: ToolCall,
  decision: ParkedDecision,
): { decided(): void; resumed(outcome: "ran" | "denied" | "blocked"): void } | undefined {
  if (decision.approvalId === undefined) return undefined;
  const base = {
    approvalId: decision.approvalId,
    sessionId: session.id,
    tool: call.name,
    toolUseId: call.id,
    decision: decision.status === "allowed" ? ("allow" as const) : ("deny" as const),
    decidedBy: decision.decidedBy,
  };
  return {
    decided: () =>
      engine.recordApproval({
        ...base,
        step: decision.byDeadline ? "expired" : "decided",
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
        edited: decision.editedInput !== undefined,
      }),
    resumed: (outcome) => engine.recordApproval({ ...base, step: "resumed", outcome }),
  };
}

/** How a person (or the deadline) decided a parked call, as {@link Agent.resumeParked} takes it. */
export interface ParkedDecision {
  /** The approval decided, for the audit trail. */
  approvalId?: string | undefined;
  status: "allowed" | "denied";
  /** Who decided: a person's name, or the approval store's deadline marker. */
  decidedBy: string;
  /** True when the deadline decided, not a person. */
  byDeadline: boolean;
  /** The decider's reason. */
  reason?: string | undefined;
  /** The input the decider replaced the call's with (an allow only). */
  editedInput?: ToolArgs | undefined;
}

/** StopFailure's `error`: the failure's type when the model told it, else from an HTTP status. */
function modelErrorType(error: AgentError): string {
  const cause = error.cause as { errorType?: unknown; status?: unknown } | undefined;
  if (typeof cause?.errorType === "string") return cause.errorType;
  const status = typeof cause?.status === "number" ? cause.status : undefined;
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "authentication_failed";
  if (status === 529) return "overloaded";
  if (status !== undefined && status >= 500) return "server_error";
  return "unknown";
}

function usageSince(session: Session, before: TokenUsage): TokenUsage {
  return {
    prompt_tokens: session.usage.prompt_tokens - before.prompt_tokens,
    completion_tokens: session.usage.completion_tokens - before.completion_tokens,
    total_tokens: session.usage.total_tokens - before.total_tokens,
  };
}

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

/** A whole number option of at least `min`, or an `INVALID_INPUT` naming it. */
function wholeNumber(value: number, field: string, min = 0): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new AgentError(
      "INVALID_INPUT",
      `${field}: expected a whole number >= ${min}, got ${String(value)}`,
      {
        path: [field],
      },
    );
  }
  return value;
}
