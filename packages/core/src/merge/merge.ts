import { HookError } from "../base/hook-error.js";
import { errorText, jsonDepth, MAX_JSON_DEPTH } from "../base/json-limits.js";
import {
  applyMergePatch,
  findForbiddenKey,
  getPath,
  patchPaths,
} from "../base/json-merge-patch.js";
import type { ValidationResult } from "../base/validation.js";
import { unionOf } from "../events/answer-fields.js";
import type { HookEvent } from "../events/event-schemas.js";
import { specOf } from "../events/event-spec.js";
import { combineRoutings, type DeferRouting } from "./defer-routing.js";
import {
  CONTINUE,
  type HookAction,
  type HookResponse,
  type PermissionDecision,
} from "./hook-response.js";

/** What a hook that fails or times out contributes: `continue` (ignore it) or `block`. */
export type FailBehavior = "continue" | "block";

/** How a hook's run ended. */
export type OutcomeStatus =
  /** Answered with a valid response. */
  | "ok"
  /** Threw, rejected, answered garbage, or its modification was invalid. */
  | "failed"
  /** Did not answer within its timeout; its `AbortSignal` was aborted. */
  | "timeout"
  /** A fire-and-forget hook: started, not awaited. */
  | "async"
  /** The firing was aborted, or the hook was not run (sequential mode after a block or skip). */
  | "cancelled";

/** One hook's contribution, as the fold takes it. */
export interface OutcomeInput {
  hookId: string;
  name?: string | undefined;
  status: OutcomeStatus;
  response?: HookResponse | undefined;
  error?: HookError | undefined;
  failBehavior: FailBehavior;
  duration: number;
}

/** One hook's contribution, as reported in the result. */
export interface HookOutcome {
  /** The hook's id. */
  hookId: string;
  /** The hook's name, if it has one. */
  name?: string;
  /** How the run ended: `ok`, `failed`, `timeout`, `async` (not awaited) or `cancelled`. */
  status: OutcomeStatus;
  /** The action this hook contributed (a failure contributes its fail behaviour). */
  action: HookAction;
  /** Milliseconds the hook took (0 for one that never ran). */
  duration: number;
  /** The reason it gave for a block or retry, or why its failure blocked. */
  reason?: string;
  /** Why it failed or timed out: the error's code and message. */
  error?: { code: string; message: string };
  /** Dotted paths this hook's patch changed. */
  modifiedPaths?: string[];
  /** True when the fold ended before this outcome (an earlier block or skip). */
  ignored?: boolean;
}

/** Two hooks wrote the same field; the later one won. */
export interface PatchConflict {
  /** The dotted path both wrote (`args.command`). */
  path: string;
  /** The two hooks, in execution order: the later one's value is the one kept. */
  hookIds: [earlier: string, later: string];
}

/**
 * A hook ended the agent's whole turn (Claude Code's `continue: false`): the host makes no
 * further tool or model call in this turn and shows `reason` to the user, never to the model.
 */
export interface TurnStop {
  /** The id of the hook that stopped the turn. */
  hookId: string;
  /** Its `stopReason`: for the user. */
  reason?: string;
  /**
   * True when the hook deferred a tool call (Claude Code's `permissionDecision: "defer"`): the
   * call did not run; a host that can park it resumes it once someone decides.
   */
  deferred?: true;
  /**
   * Who may decide the deferred call and by when. With several deferring hooks every hook's
   * condition holds: deciders intersect, the shortest deadline stands, and the deadline allows
   * only when each hook that gave one says so. Absent when no deferring hook gave a routing.
   */
  routing?: DeferRouting;
}

/** A hook answered a tool call in place of the tool (a PreToolUse `respond`). */
export interface ToolAnswer {
  /** The id of the hook that answered. */
  hookId: string;
  /** The tool result the model reads; the tool did not run. */
  output: string;
}

/** The merged answer of every hook that ran for one firing. */
export interface HookResult<E extends HookEvent = HookEvent> {
  /** `block` > `retry` > `continue`. (A `skip` ends the fold; the result is `continue`.) */
  action: "continue" | "block" | "retry";
  /** The block reason (or the retry reason). */
  reason?: string;
  /** The id of the hook whose block won. */
  blockedBy?: string;
  /** The event with every accepted patch applied (the same object when nothing changed). */
  event: E;
  /** True when some hook's patch changed the event. */
  modified: boolean;
  /** deny (a block) > ask > allow; undefined when no hook said. */
  permission?: PermissionDecision;
  /**
   * Why the deciding hooks said `ask` (or, with no ask, `allow`), their
   * `permissionDecisionReason`s joined by newlines: the host shows it in the permission question.
   */
  permissionReason?: string;
  /**
   * Set when a hook ended the agent's turn (`continue: false`). It outranks every other answer:
   * where the event can block (except Stop, whose block means "go on"), `action` is `block` too,
   * so a host that does not know this field still does not run the operation; `reason` is then
   * the stop reason, which a host that knows this field shows the user, not the model.
   */
  stopTurn?: TurnStop;
  /**
   * Set when a PreToolUse hook answered in place of the tool (`respond`): the host does not run
   * the tool and gives the model `output` as its result (`runTool` does). `action` is `block`
   * then, so a host that does not know this field does not run the tool either.
   */
  respond?: ToolAnswer;
  /** The largest delay any retry asked for, in milliseconds. */
  retryDelay?: number;
  /** Every hook's system message, in execution order. Frozen when empty: never mutate it. */
  systemMessages: readonly string[];
  /** Every hook's additional context, joined by newlines. */
  additionalContext?: string;
  /**
   * The reasons of hooks that blocked an operation that had already happened (PostToolUse,
   * PostToolUseFailure: `decision: "block"` or exit 2), joined by newlines. Claude Code's hooks
   * reference gives them to the model ("`decision: "block"` prompts Claude with the `reason`"),
   * so the host adds them to what the model reads next, the tool's result; the result's
   * `action` stays `continue`, since the tool already ran.
   */
  feedback?: string;
  /** True when any hook asked to hide its output from the transcript (`suppressOutput`). */
  suppressOutput: boolean;
  /** Per-hook outcomes, in execution order. */
  outcomes: readonly HookOutcome[];
  /** Fields more than one hook wrote. */
  conflicts: readonly PatchConflict[];
  /** Things worth a look that did not change the result (a block on an event that cannot block). */
  warnings: readonly string[];
}

/** Options of `mergeOutcomes` and the fold. */
export interface MergeOptions {
  /**
   * Checks an event after a patch; an invalid patch counts as a failure of the hook that sent
   * it. The engine passes the event's schema (and the tool's input schema where it has one).
   */
  validateEvent?: (event: HookEvent) => ValidationResult<unknown>;
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Events whose operation has already happened when their hooks run, but whose block Claude Code
 * still answers: the reason goes to the model ("PostToolUse decision control": `decision:
 * "block"` prompts Claude with the `reason`; exit 2 on PostToolUse and PostToolUseFailure shows
 * stderr to Claude).
 */
const FEEDBACK_EVENTS: ReadonlySet<string> = new Set(["PostToolUse", "PostToolUseFailure"]);

/** Each event's modifiable fields as paths (`args.command` → `["args", "command"]`), split once. */
const ALLOWED_PATHS = new Map<string, string[][]>();

function allowedPaths(name: string): string[][] {
  let paths = ALLOWED_PATHS.get(name);
  if (paths === undefined) {
    // A definition never changes once in the catalogue, so its split paths are kept.
    paths = specOf(name)?.modifiable.map((field) => field.split(".")) ?? [];
    ALLOWED_PATHS.set(name, paths);
  }
  return paths;
}

/** An outcome as the result lists it, before the fold reads its response. */
function outcomeOf(input: OutcomeInput): HookOutcome {
  const outcome: HookOutcome = {
    hookId: input.hookId,
    status: input.status,
    action: "continue",
    duration: input.duration,
  };
  if (input.name !== undefined) outcome.name = input.name;
  return outcome;
}

function isWithin(path: readonly string[], allowed: readonly string[][]): boolean {
  return allowed.some((a) => a.length <= path.length && a.every((k, i) => path[i] === k));
}

/**
 * The incremental fold. The engine feeds it outcomes in execution order (priority, then
 * registration order), whether the hooks ran in parallel or one after another, so the result
 * depends on execution order alone, never on which hook finished first.
 */
export class ResultFolder<E extends HookEvent = HookEvent> {
  readonly #spec;
  readonly #validate: MergeOptions["validateEvent"];
  #event: E;
  #done = false;
  #blocked: { reason: string; hookId: string } | undefined;
  #retry: { delay: number; reason?: string } | undefined;
  #permission: "allow" | "ask" | undefined;
  #permissionReasons: { allow: string[]; ask: string[] } | undefined;
  #stop: TurnStop | undefined;
  #respond: ToolAnswer | undefined;
  #systemMessages: string[] | undefined;
  #context: string[] | undefined;
  #feedback: string[] | undefined;
  #suppress = false;
  #modified = false;
  #written: Map<string, string> | undefined;
  #conflicts: PatchConflict[] | undefined;
  #warnings: string[] | undefined;
  readonly #outcomes: HookOutcome[] = [];

  constructor(event: E, options: MergeOptions = {}) {
    this.#event = event;
    this.#spec = specOf(event.eventType);
    this.#validate = options.validateEvent;
  }

  /** The event as patched so far (what the next hook sees in sequential mode). */
  get event(): E {
    return this.#event;
  }

  /** True once a block or skip has ended the fold. */
  get done(): boolean {
    return this.#done;
  }

  /** Add the next outcome in execution order. Returns true when the fold has ended. */
  add(input: OutcomeInput): boolean {
    const outcome = outcomeOf(input);
    this.#outcomes.push(outcome);
    if (this.#done) {
      outcome.ignored = true;
      if (input.response) outcome.action = input.response.action;
      return true;
    }
    if (input.status === "async" || input.status === "cancelled") return false;
    try {
      return this.#fold(outcome, input);
    } catch (error) {
      // A bug, or data no check foresaw: this hook failed, under its own fail behaviour.
      return this.#fail(
        outcome,
        input,
        new HookError("INTERNAL", `its answer could not be merged: ${errorText(error)}`, {
          cause: error,
        }),
      );
    }
  }

  #fold(outcome: HookOutcome, input: OutcomeInput): boolean {
    let response = input.response;
    if (input.status !== "ok" || response === undefined) {
      const error = input.error ?? new HookError("INTERNAL", "hook produced no response");
      response = this.#failure(outcome, input, error);
    }
    if (response.systemMessage) (this.#systemMessages ??= []).push(response.systemMessage);
    if (response.suppressOutput) this.#suppress = true;
    if (response.stopTurn?.deferred) return this.#defer(outcome, input, response.stopTurn);
    if (response.stopTurn) {
      // Claude Code stops processing once such an answer is in: nothing after it counts.
      this.#stop = {
        hookId: input.hookId,
        ...(response.stopTurn.reason ? { reason: response.stopTurn.reason } : {}),
        ...(response.stopTurn.deferred ? { deferred: true as const } : {}),
      };
      outcome.reason = response.stopTurn.reason ?? "stopped the turn";
      if (this.#stopBlocks()) outcome.action = "block";
      this.#done = true;
      return true;
    }

    switch (response.action) {
      case "block": {
        outcome.action = "block";
        outcome.reason = response.reason;
        if (!this.#spec?.canBlock && FEEDBACK_EVENTS.has(this.#event.eventType)) {
          // The tool already ran: the reason is for the model, and the other hooks still count.
          (this.#feedback ??= []).push(response.reason);
          if (response.additionalContext) (this.#context ??= []).push(response.additionalContext);
          return false;
        }
        if (!this.#spec?.canBlock) {
          (this.#warnings ??= []).push(
            `hook ${input.name ?? input.hookId} tried to block ${this.#event.eventType}, which cannot be blocked; treated as continue`,
          );
          outcome.action = "continue";
          return false;
        }
        this.#blocked = { reason: response.reason, hookId: input.hookId };
        this.#done = true;
        return true;
      }
      case "retry": {
        outcome.action = "retry";
        const delay = response.delay ?? 0;
        if (response.reason !== undefined) outcome.reason = response.reason;
        if (!this.#retry || delay > this.#retry.delay) {
          this.#retry = {
            delay,
            ...(response.reason !== undefined ? { reason: response.reason } : {}),
          };
        }
        return false;
      }
      case "skip":
        outcome.action = "skip";
        this.#done = true;
        return true;
      case "respond": {
        if (this.#event.eventType !== "PreToolUse") {
          return this.#fail(
            outcome,
            input,
            new HookError(
              "INVALID_OUTPUT",
              `response.action: only a PreToolUse answer may respond in place of the tool; ${this.#event.eventType} cannot`,
              { path: ["response", "action"] },
            ),
          );
        }
        outcome.action = "respond";
        outcome.reason = "answered in place of the tool";
        this.#respond = { hookId: input.hookId, output: response.output };
        this.#done = true;
        return true;
      }
      default: {
        if (
          response.modified !== undefined &&
          !this.#applyPatch(outcome, input, response.modified)
        ) {
          return this.#done;
        }
        if (response.permission === "ask") this.#permission = "ask";
        else if (response.permission === "allow" && this.#permission === undefined)
          this.#permission = "allow";
        if (response.permission && response.permissionReason) {
          (this.#permissionReasons ??= { allow: [], ask: [] })[response.permission].push(
            response.permissionReason,
          );
        }
        if (response.additionalContext) (this.#context ??= []).push(response.additionalContext);
        return false;
      }
    }
  }

  /**
   * A `defer` (PreToolUse only: elsewhere it is the hook's failure). Claude Code folds PreToolUse decisions as deny > defer > ask > allow, so the fold
   * goes on: a later block (or `continue: false`) still wins, and a later defer adds its routing
   * (see {@link combineRoutings}); deferring hooks whose deciders have nothing in common block.
   */
  #defer(
    outcome: HookOutcome,
    input: OutcomeInput,
    stop: NonNullable<HookResponse["stopTurn"]>,
  ): boolean {
    if (this.#event.eventType !== "PreToolUse") {
      return this.#fail(
        outcome,
        input,
        new HookError(
          "INVALID_OUTPUT",
          `response.stopTurn.deferred: only a PreToolUse answer may defer a tool call; ${this.#event.eventType} cannot`,
          { path: ["response", "stopTurn", "deferred"] },
        ),
      );
    }
    outcome.reason = stop.reason ?? "deferred the call";
    if (this.#stopBlocks()) outcome.action = "block";
    const earlier = this.#stop;
    if (earlier === undefined) {
      this.#stop = {
        hookId: input.hookId,
        ...(stop.reason ? { reason: stop.reason } : {}),
        deferred: true,
        ...(stop.routing !== undefined ? { routing: stop.routing } : {}),
      };
      return false;
    }
    const combined = combineRoutings(earlier.routing, stop.routing);
    if ("refused" in combined) {
      this.#stop = undefined;
      this.#blocked = { reason: combined.refused, hookId: input.hookId };
      this.#done = true;
      return true;
    }
    const reason = [earlier.reason, stop.reason].filter(Boolean).join("\n");
    this.#stop = {
      hookId: earlier.hookId,
      ...(reason ? { reason } : {}),
      deferred: true,
      ...(combined.routing !== undefined ? { routing: combined.routing } : {}),
    };
    return false;
  }

  /** A stopped turn also blocks the operation where a block means "do not do it". */
  #stopBlocks(): boolean {
    return this.#spec?.canBlock === true && this.#event.eventType !== "Stop";
  }

  /** A failed hook contributes its fail behaviour. */
  #failure(outcome: HookOutcome, input: OutcomeInput, error: HookError): HookResponse {
    outcome.error = { code: error.code, message: error.message };
    if (outcome.status === "ok") outcome.status = "failed";
    if (input.failBehavior === "block") {
      const what = input.status === "timeout" ? "timed out" : "failed";
      return {
        action: "block",
        reason: `hook ${input.name ?? input.hookId} ${what}: ${error.message}`,
      };
    }
    return { action: "continue" };
  }

  /**
   * A hook's answer could not be used: it contributes its fail behaviour (a block ends the fold
   * where the event can block). Returns whether the fold has ended.
   */
  #fail(outcome: HookOutcome, input: OutcomeInput, error: HookError): boolean {
    const fallback = this.#failure(outcome, input, error);
    if (fallback.action === "block") {
      outcome.action = "block";
      outcome.reason = fallback.reason;
      if (this.#spec?.canBlock) {
        this.#blocked = { reason: fallback.reason, hookId: input.hookId };
        this.#done = true;
      }
    }
    return this.#done;
  }

  /** Validate and apply one patch. Returns false when the patch was refused. */
  #applyPatch(outcome: HookOutcome, input: OutcomeInput, patch: Record<string, unknown>): boolean {
    const refuse = (message: string, path: readonly string[] = []): boolean => {
      this.#fail(outcome, input, new HookError("INVALID_MODIFICATION", message, { path }));
      return false;
    };
    // Answers from the engine were copied within the limit already; mergeOutcomes takes any.
    if (jsonDepth(patch) > MAX_JSON_DEPTH) {
      return refuse(`modified: nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    const forbidden = findForbiddenKey(patch);
    if (forbidden)
      return refuse(`modified.${forbidden.join(".")}: this key is not allowed`, forbidden);
    const paths = patchPaths(patch);
    if (paths.length === 0) return true;
    const within = allowedPaths(this.#event.eventType);
    for (const path of paths) {
      if (!isWithin(path, within)) {
        const allowed = this.#spec?.modifiable.join(", ") || "nothing";
        return refuse(
          `modified.${path.join(".")}: ${this.#event.eventType} allows hooks to modify ${allowed}`,
          path,
        );
      }
    }
    let next = applyMergePatch(this.#event, patch);
    if (this.#validate) {
      const checked = this.#validate(next);
      if (!checked.success) return refuse(`modified: ${checked.error.message}`);
    }
    // Checked as this hook's own answer above; only then added to what earlier hooks answered.
    const answers = this.#spec?.answers;
    let unions: Set<string> | undefined;
    if (answers !== undefined) {
      for (const field of Object.keys(patch)) {
        const rule = answers[field];
        if (rule?.merge !== "union") continue;
        const before = (this.#event as Record<string, unknown>)[field];
        const { value, dropped } = unionOf(before, patch[field], rule.maxItems);
        next = { ...next, [field]: value };
        (unions ??= new Set()).add(field);
        if (dropped > 0) {
          (this.#warnings ??= []).push(
            `hook ${input.name ?? input.hookId}: ${field} holds at most ${rule.maxItems} items; ${dropped} dropped`,
          );
        }
      }
    }
    const dotted = paths.map((p) => p.join("."));
    for (const [i, key] of dotted.entries()) {
      if (unions?.has(paths[i]![0]!)) continue;
      const earlier = this.#written?.get(key);
      if (earlier !== undefined && earlier !== input.hookId) {
        const before = getPath(this.#event, paths[i]!);
        const after = getPath(next, paths[i]!);
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          (this.#conflicts ??= []).push({ path: key, hookIds: [earlier, input.hookId] });
        }
      }
      (this.#written ??= new Map()).set(key, input.hookId);
    }
    outcome.modifiedPaths = dotted;
    this.#event = next;
    this.#modified = true;
    return true;
  }

  /** The merged result. */
  finish(): HookResult<E> {
    const result: HookResult<E> = {
      action: this.#blocked ? "block" : this.#retry ? "retry" : "continue",
      event: this.#event,
      modified: this.#modified,
      systemMessages: this.#systemMessages ?? EMPTY,
      suppressOutput: this.#suppress,
      outcomes: this.#outcomes,
      conflicts: this.#conflicts ?? EMPTY,
      warnings: this.#warnings ?? EMPTY,
    };
    // A block (or a respond, which merges as one) after a defer wins (deny > defer); a
    // `continue: false` ends the fold at once.
    if (this.#stop && !(this.#stop.deferred && (this.#blocked || this.#respond))) {
      result.stopTurn = this.#stop;
      if (this.#stopBlocks()) {
        result.action = "block";
        result.reason = this.#stop.reason ?? "a hook stopped the turn";
        result.blockedBy = this.#stop.hookId;
        result.permission = "deny";
      } else result.action = "continue";
    } else if (this.#respond) {
      // A block for hosts that do not know `respond`: the tool must not run there either.
      result.action = "block";
      result.respond = this.#respond;
      result.reason = "a hook answered in place of the tool";
      result.blockedBy = this.#respond.hookId;
    } else if (this.#blocked) {
      result.reason = this.#blocked.reason;
      result.blockedBy = this.#blocked.hookId;
      result.permission = "deny";
    } else {
      if (this.#retry) {
        result.retryDelay = this.#retry.delay;
        if (this.#retry.reason !== undefined) result.reason = this.#retry.reason;
      }
      if (this.#permission) {
        result.permission = this.#permission;
        const reasons = this.#permissionReasons?.[this.#permission];
        if (reasons?.length) result.permissionReason = reasons.join("\n");
      }
    }
    if (this.#context) result.additionalContext = this.#context.join("\n");
    if (this.#feedback) result.feedback = this.#feedback.join("\n");
    return result;
  }
}

/**
 * The merge as a pure function: fold per-hook outcomes, given in
 * execution order, into one result.
 *
 * @example
 * ```ts
 * const result = mergeOutcomes(event, [
 *   { hookId: "a", status: "ok", response: modify({ args: { timeout: 1 } }), failBehavior: "continue", duration: 1 },
 *   { hookId: "b", status: "ok", response: block("no"), failBehavior: "continue", duration: 1 },
 * ]);
 * result.action; // "block"
 * ```
 */
export function mergeOutcomes<E extends HookEvent>(
  event: E,
  outcomes: readonly OutcomeInput[],
  options: MergeOptions = {},
): HookResult<E> {
  const plain = foldContinues(event, outcomes);
  if (plain !== undefined) return plain;
  const folder = new ResultFolder(event, options);
  for (const outcome of outcomes) folder.add(outcome);
  return folder.finish();
}

/**
 * The fold of outcomes that all answered a bare continue (or run fire-and-forget), the
 * commonest firing, without a folder: the same result `ResultFolder` builds for them, or
 * undefined as soon as one outcome says anything more.
 */
function foldContinues<E extends HookEvent>(
  event: E,
  inputs: readonly OutcomeInput[],
): HookResult<E> | undefined {
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    const status = input.status;
    // CONTINUE is frozen and has nothing but its action: nothing to merge.
    if ((status !== "ok" || input.response !== CONTINUE) && status !== "async") return undefined;
  }
  // Checked first, then made at its size: a growing array would make room for 17.
  const outcomes: HookOutcome[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) outcomes[i] = outcomeOf(inputs[i]!);
  const result = emptyResult(event);
  result.outcomes = outcomes;
  return result;
}

/** The result of a firing no hook answered: continue, event unchanged. */
export function emptyResult<E extends HookEvent>(event: E): HookResult<E> {
  return {
    action: "continue",
    event,
    modified: false,
    systemMessages: EMPTY,
    suppressOutput: false,
    outcomes: EMPTY,
    conflicts: EMPTY,
    warnings: EMPTY,
  };
}
