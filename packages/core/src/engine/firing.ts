import type { DeadlineScheduler, Expirable } from "../base/deadline-scheduler.js";
import { HookError } from "../base/hook-error.js";
import type { JobClock } from "../base/job-clock.js";
import { errorText } from "../base/json-limits.js";
import type { Timers } from "../base/timers.js";
import type { HookEvent, HookEventName } from "../events/event-schemas.js";
import { specOf } from "../events/event-spec.js";
import { CONTINUE, checkHookResponse, type HookResponse } from "../merge/hook-response.js";
import {
  emptyResult,
  type FailBehavior,
  type HookOutcome,
  type HookResult,
  type MergeOptions,
  mergeOutcomes,
  type OutcomeInput,
  type OutcomeStatus,
  ResultFolder,
} from "../merge/merge.js";
import { InvocationContext, ValuedContext } from "./invocation-context.js";
import type { CompiledMatcher } from "./matcher.js";
import type { ContextValues } from "./middleware.js";
import type { HookHandler } from "./registration.js";

/** A registered hook, as the engine keeps it. */
export interface StoredHook {
  readonly id: string;
  readonly name: string | undefined;
  readonly event: HookEventName;
  readonly handler: HookHandler;
  readonly matcher: CompiledMatcher;
  readonly matcherText: string;
  readonly priority: number;
  readonly timeout: number;
  readonly failBehavior: FailBehavior;
  readonly async: boolean;
  readonly once: boolean;
  readonly source: string | undefined;
  readonly seq: number;
  readonly stats: { runs: number; blocks: number; failures: number; timeouts: number };
  /** Its answers come checked already (see `answersChecked`): taken as they are. */
  readonly checkedAnswers: boolean;
  detach?: () => void;
}

/** What a firing needs from its engine; one per engine, made once. */
export interface FiringHost {
  readonly timers: Timers;
  /** The clock for hooks that answer through a promise. */
  readonly jobClock: JobClock;
  readonly deadlines: DeadlineScheduler;
  readonly mergeOptions: MergeOptions;
  /**
   * Emit the audit records of a finished firing that began at `began` (a `timers.now()`
   * reading; the clock is read again only if a `fired` record is wanted).
   */
  report(event: HookEvent, hooks: readonly StoredHook[], result: HookResult, began: number): void;
  /** Emit `started` (verbose audit). */
  started(hook: StoredHook, event: HookEvent): void;
  /** A fire-and-forget hook failed or timed out after its firing was answered. */
  late(hook: StoredHook, eventId: string, error: HookError): void;
  /** Something worth a warning in the audit stream. */
  warn(message: string, about: { hookId: string; eventId: string }): void;
}

/** A handler's answer as the fold takes it: checked, or a `HookError` saying what is wrong. */
function checkedAnswer(hook: StoredHook, value: unknown): HookResponse | HookError {
  return hook.checkedAnswers ? (value as HookResponse) : checkHookResponse(value);
}

/**
 * The outcome of a hook that answered a bare continue within a parallel pass: already the
 * `HookOutcome` the result reports (no run object), its duration set when the pass ends.
 */
function continued(hook: StoredHook): HookOutcome {
  const outcome: HookOutcome = {
    hookId: hook.id,
    status: "ok",
    action: "continue",
    duration: PASS_END,
  };
  if (hook.name !== undefined) outcome.name = hook.name;
  return outcome;
}

/**
 * A slot of a parallel firing's outcomes: a run, a fire-and-forget hook's input, or
 * {@link continued}.
 */
type Slot = OutcomeInput | HookOutcome;

/** True for a {@link continued} outcome (the only slot with an `action`). */
function isContinued(slot: Slot): slot is HookOutcome {
  return (slot as HookOutcome).action !== undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  // A thenable check rather than instanceof, so promises from other realms work too.
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as PromiseLike<unknown>).then === "function"
  );
}

/** What a handler threw, as a HookError, even when reading it throws too. */
function handlerError(error: unknown): HookError {
  try {
    return HookError.from(error, "HANDLER_FAILED");
  } catch {
    return new HookError("HANDLER_FAILED", errorText(error), { cause: error });
  }
}

/**
 * The result of a firing whose processing failed in a way no hook's answer explains (a bug,
 * or hostile data no check foresaw). Never a silent continue past a hook that could block:
 * where the event can block and some hook that ran was fail-closed or had answered block, the
 * result is a block; otherwise continue with the event as it was. Every hook is reported failed.
 */
export function crashedResult<E extends HookEvent>(
  event: E,
  hooks: readonly StoredHook[],
  outcomes: readonly OutcomeInput[],
  error: unknown,
  blockedBy?: string,
): HookResult<E> {
  const message = `hook processing failed: ${errorText(error)}`;
  const canBlock = specOf(event.eventType)?.canBlock === true;
  const blocks = (hook: StoredHook, i: number) =>
    canBlock &&
    !hook.async &&
    (hook.failBehavior === "block" || outcomes[i]?.response?.action === "block");
  const result = emptyResult(event);
  result.warnings = [message];
  result.outcomes = hooks.map((hook, i) => {
    const outcome: HookOutcome = {
      hookId: hook.id,
      status: "failed",
      action: blocks(hook, i) ? "block" : "continue",
      duration: 0,
      error: { code: "INTERNAL", message },
    };
    if (hook.name !== undefined) outcome.name = hook.name;
    return outcome;
  });
  const closing = canBlock ? (blockedBy ?? hooks.find(blocks)?.id) : undefined;
  if (closing !== undefined) {
    result.action = "block";
    result.reason = message;
    result.blockedBy = closing;
    result.permission = "deny";
  }
  return result;
}

/** The error of a firing whose signal aborted, with the signal's reason as its cause. */
export function aborted(signal: AbortSignal): HookError {
  return new HookError("ABORTED", "the firing was aborted", { cause: signal.reason });
}

/**
 * The duration of a hook that answered within a parallel pass, until the pass ends and one
 * clock reading serves every such answer.
 */
const PASS_END = Number.NaN;

/** Where {@link capture} leaves the resolving functions of the promise it was given. */
const captured: {
  resolve: ((value: never) => void) | undefined;
  reject: ((error: unknown) => void) | undefined;
} = { resolve: undefined, reject: undefined };

/**
 * One executor for every firing's promise (it runs synchronously in `new Promise`): no closure
 * per firing. The caller takes the functions from {@link captured} at once and clears it.
 */
function capture(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}

/** Whoever waits for a run's answer. */
interface RunOwner {
  /** True when several of its runs may answer together (one clock reading can serve them). */
  readonly sharesClock: boolean | undefined;
  /**
   * True while a parallel pass is starting its hooks: an answer given within the handler call
   * is timed by the one reading taken when the pass ends (see {@link PASS_END}).
   */
  readonly inPass: boolean;
  hookDone(run: HookRun): void;
}

/**
 * One hook's run: its context, its deadline, and (once settled) its outcome. It is the
 * outcome the fold reads, so a run costs one object besides the handler's context.
 */
class HookRun implements OutcomeInput, Expirable {
  readonly hook: StoredHook;
  readonly ctx: InvocationContext;
  /** When the hook started (for parallel hooks, when the firing started them all). */
  readonly start: number;
  status: OutcomeStatus = "ok";
  response: HookResponse | undefined;
  error: HookError | undefined;
  duration = 0;
  settled = false;
  /** True once its answer is awaited (it did not answer within the handler call). */
  awaited: boolean | undefined;
  timer: unknown;
  /** The firing waiting for this run; undefined once it runs fire-and-forget. */
  owner: RunOwner | undefined;
  readonly #host: FiringHost;

  constructor(
    host: FiringHost,
    hook: StoredHook,
    ctx: InvocationContext,
    owner: RunOwner | undefined,
    start: number,
  ) {
    this.#host = host;
    this.hook = hook;
    this.owner = owner;
    this.start = start;
    this.ctx = ctx;
  }

  // Read from the hook rather than copied: four fields less per run.
  get hookId(): string {
    return this.hook.id;
  }
  get name(): string | undefined {
    return this.hook.name;
  }
  get failBehavior(): FailBehavior {
    return this.hook.failBehavior;
  }
  get timeout(): number {
    return this.hook.timeout;
  }

  /** The handler answered: returned a value, or (`async` true) resolved to one. */
  answered(value: unknown, async: boolean): void {
    if (this.settled) return;
    const end = this.#clock(async);
    // Fire and forget (no owner): nobody reads the answer.
    this.took(this.owner === undefined ? undefined : checkedAnswer(this.hook, value), end);
  }

  /** Settle with an answer already checked, the handler having returned at `end`. */
  took(response: HookResponse | HookError | undefined, end: number): void {
    if (response instanceof HookError) this.#settle("failed", undefined, response, end);
    else this.#settle("ok", response, undefined, end);
  }

  /** The handler threw, or (`async` true) rejected. */
  threw(error: unknown, async: boolean): void {
    if (this.settled) return;
    const end = this.#clock(async);
    this.#settle("failed", undefined, handlerError(error), end);
  }

  /**
   * The time now; in a promise reaction (`async`), shared with the firing's other reactions;
   * within a parallel pass, {@link PASS_END} (the pass reads the clock once for all).
   */
  #clock(async: boolean): number {
    if (async) {
      return this.owner?.sharesClock ? this.#host.jobClock.now() : this.#host.timers.now();
    }
    return this.owner?.inPass ? PASS_END : this.#host.timers.now();
  }

  /** Its timeout passed. */
  expire(): void {
    if (this.settled) return;
    const error = new HookError("TIMEOUT", `no answer within ${this.timeout} ms`, {
      details: { timeout: this.timeout },
    });
    this.#abort(error);
    this.#settle("timeout", undefined, error, this.#host.timers.now());
  }

  /** Its firing was aborted by `signal`. */
  cancel(signal: AbortSignal): void {
    if (this.settled) return;
    this.#abort(signal.reason);
    this.#settle("cancelled", undefined, aborted(signal), this.#host.timers.now());
  }

  #abort(reason: unknown): void {
    const failure = InvocationContext.abort(this.ctx, reason);
    if (failure !== undefined) {
      // The hook's own cleanup failed; its outcome stands, and the host hears about it.
      this.#host.warn(`onAbort threw: ${HookError.from(failure).message}`, {
        hookId: this.hookId,
        eventId: this.ctx.eventId,
      });
    }
  }

  #settle(
    status: OutcomeStatus,
    response: HookResponse | undefined,
    error: HookError | undefined,
    end: number,
  ): void {
    this.settled = true;
    this.status = status;
    this.response = response;
    this.error = error;
    this.duration = end - this.start;
    const stats = this.hook.stats;
    if (status === "failed") stats.failures++;
    else if (status === "timeout") stats.timeouts++;
    else if (response?.action === "block") stats.blocks++;
    if (!this.awaited) return;
    this.#host.deadlines.done(this);
    const owner = this.owner;
    if (owner !== undefined) owner.hookDone(this);
    else if (error !== undefined) this.#host.late(this.hook, this.ctx.eventId, error);
  }
}

/**
 * One `fire()` with at least one matching hook: starts the hooks (all at once, or one after
 * another in sequential mode), waits for the ones that answer asynchronously, folds the
 * outcomes in execution order and settles the firing's promise. One promise per firing, none
 * per hook; no timer for hooks that answer within the turn (see {@link DeadlineScheduler}).
 */
export class Firing<E extends HookEvent> implements RunOwner {
  readonly #host: FiringHost;
  readonly #event: E;
  readonly #hooks: readonly StoredHook[];
  readonly #signal: AbortSignal | undefined;
  readonly #auditStarts: boolean;
  /** What the engine's middleware set for this firing, for the hooks' `ctx.get`. */
  readonly #values: ContextValues | undefined;
  /** Parallel mode: every hook's outcome, in execution order. */
  readonly #outcomes: Slot[];
  /** Parallel mode: how many hooks answered a bare continue within the pass ({@link continued}). */
  #continued = 0;
  /** Sequential mode: the fold so far, and the next hook to start. */
  readonly #folder: ResultFolder<E> | undefined;
  #next = 0;
  /** The last clock reading: a parallel firing's start, or when the last sequential hook ended. */
  #now = 0;
  /** When `run` began, for the `fired` record's duration. */
  #began = 0;
  #waiting = 0;
  sharesClock: boolean | undefined;
  inPass = false;
  #over = false;
  #resolve: ((result: HookResult<E>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  #onAbort: (() => void) | undefined;

  constructor(
    host: FiringHost,
    event: E,
    hooks: readonly StoredHook[],
    sequential: boolean,
    signal: AbortSignal | undefined,
    auditStarts: boolean,
    values: ContextValues | undefined,
  ) {
    this.#host = host;
    this.#values = values;
    this.#event = event;
    this.#hooks = hooks;
    this.#signal = signal;
    this.#auditStarts = auditStarts;
    this.#folder = sequential ? new ResultFolder(event, host.mergeOptions) : undefined;
    // Parallel: one slot per hook, made at its size (a growing array would make room for 17).
    this.#outcomes = sequential ? [] : new Array(hooks.length);
  }

  run(): Promise<HookResult<E>> {
    const signal = this.#signal;
    const host = this.#host;
    try {
      // Parallel hooks start together, so one clock reading serves them all.
      this.#now = this.#began = host.timers.now();
      if (this.#folder !== undefined) this.#step();
      else this.#pass();
      if (this.#waiting === 0) return this.#settled();
    } catch (error) {
      // Nothing a hook answers gets here (its answer is its own failure); hooks already
      // running keep their timeouts.
      this.#over = true;
      return Promise.resolve(this.#crashed(error));
    } finally {
      host.deadlines.arm();
    }
    this.sharesClock = this.#waiting > 1;
    const promise = new Promise<HookResult<E>>(capture);
    this.#resolve = captured.resolve as (result: HookResult<E>) => void;
    this.#reject = captured.reject;
    captured.resolve = captured.reject = undefined;
    // Aborted already: a handler aborted the firing while it started.
    if (signal?.aborted) this.#abort();
    else if (signal !== undefined) {
      this.#onAbort = () => this.#abort();
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
    return promise;
  }

  /** Called by a run that was waited for, once it settles. */
  hookDone(run: HookRun): void {
    if (this.#over) return;
    this.#waiting--;
    if (this.#folder !== undefined) {
      try {
        this.#folder.add(run);
        // The next hook starts now: the clock was read when this one settled.
        this.#now = run.start + run.duration;
        this.#step();
      } catch (error) {
        this.#finish();
        this.#resolve!(this.#crashed(error));
        return;
      } finally {
        this.#host.deadlines.arm();
      }
    }
    if (this.#waiting > 0) return;
    this.#finish();
    const signal = this.#signal;
    if (signal?.aborted) this.#reject!(aborted(signal));
    else this.#resolve!(this.#result());
  }

  /**
   * Parallel mode: start every hook. The answers given within their handler calls share one
   * clock reading, taken when the last handler returned: each such hook's duration runs from
   * the firing's start to the end of the pass (never shorter than the truth), at one clock
   * reading per firing instead of one per hook.
   */
  #pass(): void {
    const outcomes = this.#outcomes;
    const event = this.#event;
    this.inPass = true;
    try {
      const hooks = this.#hooks;
      for (let i = 0; i < hooks.length; i++) outcomes[i] = this.#start(hooks[i]!, event);
    } finally {
      this.inPass = false;
    }
    let end: number | undefined;
    for (const outcome of outcomes) {
      if (Number.isNaN(outcome.duration)) {
        end ??= this.#host.timers.now();
        outcome.duration = end - this.#now;
      }
    }
  }

  #start(hook: StoredHook, event: HookEvent): Slot {
    hook.stats.runs++;
    const values = this.#values;
    const ctx =
      values === undefined
        ? new InvocationContext(hook.id, event)
        : new ValuedContext(hook.id, event, values);
    if (this.#auditStarts) this.#host.started(hook, event);
    let value: unknown;
    let thenable: boolean;
    try {
      value = hook.handler(event as never, ctx);
      // Inside the try: reading `then` of a hostile answer may throw.
      thenable = isThenable(value);
    } catch (error) {
      const run = this.#run(hook, ctx, hook.async ? undefined : this);
      run.threw(error, false);
      if (!hook.async) return run;
      thenable = false;
    }
    if (hook.async) {
      // Fire and forget: keep the timeout (so a runaway hook is aborted) but never wait.
      if (thenable) this.#await(this.#run(hook, ctx, undefined), value as PromiseLike<unknown>);
      return {
        hookId: hook.id,
        name: hook.name,
        status: "async",
        response: CONTINUE,
        failBehavior: hook.failBehavior,
        duration: this.inPass ? PASS_END : this.#host.timers.now() - this.#now,
      };
    }
    if (!thenable) {
      if (!this.inPass) {
        const run = this.#run(hook, ctx, this);
        run.answered(value, false);
        return run;
      }
      // Answered within the pass: a bare continue needs no run, only its outcome.
      const response = checkedAnswer(hook, value);
      if (response === CONTINUE) {
        this.#continued++;
        return continued(hook);
      }
      const run = this.#run(hook, ctx, this);
      run.took(response, PASS_END);
      return run;
    }
    const run = this.#run(hook, ctx, this);
    this.#waiting++;
    this.#await(run, value as PromiseLike<unknown>);
    return run;
  }

  #run(hook: StoredHook, ctx: InvocationContext, owner: RunOwner | undefined): HookRun {
    return new HookRun(this.#host, hook, ctx, owner, this.#now);
  }

  #await(run: HookRun, value: PromiseLike<unknown>): void {
    run.awaited = true;
    // Promise.resolve adopts foreign thenables safely: a then() that throws becomes a
    // rejection instead of escaping (a native promise is returned as is).
    Promise.resolve(value).then(
      (v) => run.answered(v, true),
      (error: unknown) => run.threw(error, true),
    );
    // After then(): a handler that has already answered settles in the microtask queued just
    // now, ahead of the scheduler's, and never needs a timer.
    this.#host.deadlines.add(run);
  }

  /** Sequential mode: start hooks until one has to be waited for, or all have run. */
  #step(): void {
    const folder = this.#folder!;
    const hooks = this.#hooks;
    while (this.#next < hooks.length) {
      const hook = hooks[this.#next++]!;
      if (folder.done) {
        folder.add({
          hookId: hook.id,
          name: hook.name,
          status: "cancelled",
          failBehavior: hook.failBehavior,
          duration: 0,
        });
        continue;
      }
      // Outside a pass every hook gets a run (or a fire-and-forget input): never continued().
      const outcome = this.#start(hook, folder.event) as OutcomeInput;
      if (this.#waiting > 0) {
        this.#outcomes[0] = outcome;
        return;
      }
      folder.add(outcome);
      this.#now += outcome.duration;
    }
  }

  /** The answer of a firing all of whose hooks answered within the turn. */
  #settled(): Promise<HookResult<E>> {
    const signal = this.#signal;
    // A handler aborted the firing while it ran.
    if (signal?.aborted) return Promise.reject(aborted(signal));
    return Promise.resolve(this.#result());
  }

  /** Fold the outcomes and audit the result. Never throws. */
  #result(): HookResult<E> {
    let result: HookResult<E>;
    try {
      const folder = this.#folder;
      result =
        folder !== undefined
          ? folder.finish()
          : this.#continued === this.#outcomes.length
            ? this.#allContinued()
            : mergeOutcomes(this.#event, this.#inputs(), this.#host.mergeOptions);
    } catch (error) {
      return this.#crashed(error);
    }
    this.#report(result);
    return result;
  }

  /** Every hook answered a bare continue within the pass: the outcomes are the result's already. */
  #allContinued(): HookResult<E> {
    const result = emptyResult(this.#event);
    result.outcomes = this.#outcomes as HookOutcome[];
    return result;
  }

  /** The parallel outcomes as the fold takes them. */
  #inputs(): OutcomeInput[] {
    const slots = this.#outcomes;
    if (this.#continued === 0) return slots as OutcomeInput[];
    const hooks = this.#hooks;
    const inputs: OutcomeInput[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      // A slot is empty when the firing crashed while it started its hooks.
      inputs[i] =
        slot !== undefined && isContinued(slot)
          ? {
              hookId: slot.hookId,
              name: slot.name,
              status: "ok",
              response: CONTINUE,
              failBehavior: hooks[i]!.failBehavior,
              duration: slot.duration,
            }
          : slot;
    }
    return inputs;
  }

  #crashed(error: unknown): HookResult<E> {
    const folder = this.#folder;
    let blockedBy: string | undefined;
    if (folder !== undefined) {
      // Sequential: the outcomes are in the fold; a block it already holds must stand.
      try {
        blockedBy = folder.finish().blockedBy;
      } catch {
        blockedBy = this.#hooks[0]?.id;
      }
    }
    const outcomes = folder === undefined ? this.#inputs() : [];
    const result = crashedResult(this.#event, this.#hooks, outcomes, error, blockedBy);
    this.#report(result);
    return result;
  }

  #report(result: HookResult<E>): void {
    try {
      this.#host.report(this.#event, this.#hooks, result, this.#began);
    } catch {
      // Audit listeners are isolated; whatever else fails here must not change the answer.
    }
  }

  #finish(): void {
    this.#over = true;
    if (this.#onAbort !== undefined) this.#signal!.removeEventListener("abort", this.#onAbort);
  }

  /** The firing's signal aborted: abort every hook still running, and reject. */
  #abort(): void {
    if (this.#over) return;
    this.#finish();
    const signal = this.#signal!;
    // In sequential mode the one waited for is the only run in #outcomes.
    for (const outcome of this.#outcomes) {
      if (outcome instanceof HookRun) outcome.cancel(signal);
    }
    this.#reject!(aborted(signal));
  }
}
