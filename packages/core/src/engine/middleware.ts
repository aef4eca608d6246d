import { HookError } from "../base/hook-error.js";
import { errorText } from "../base/json-limits.js";
import { validateEvent } from "../events/create-event.js";
import type {
  HookEvent,
  HookEventMap,
  HookEventName,
  ModelConfig,
  TokenUsage,
  ToolArgs,
  ToolCall,
  ToolContext,
} from "../events/event-schemas.js";
import { isHookEventName, specOf } from "../events/event-spec.js";
import { checkHookResponse, type HookResponse } from "../merge/hook-response.js";
import {
  emptyResult,
  type FailBehavior,
  type HookResult,
  type MergeOptions,
  mergeOutcomes,
} from "../merge/merge.js";

/** What a tool returns to the guard. A thrown error, or `success: false`, is a failure. */
export interface ToolOutput {
  /** What the tool printed or returned, as text: what PostToolUse hooks see and may rewrite. */
  output: string;
  /** The process exit code, for tools that run one. */
  exitCode?: number;
  /** Default true. */
  success?: boolean;
}

/** One tool call for `runTool`: the session, the tool, its arguments. */
export interface ToolInvocation {
  /** The session the call belongs to. */
  sessionId: string;
  /** The tool's name, as matchers test it (`Bash`, `mcp__github__create_issue`). */
  tool: string;
  /** The arguments the model asked for; PreToolUse hooks may rewrite them. */
  args: ToolArgs;
  /** The model's id for this call, passed to every event of it. */
  toolUseId?: string;
  /** Where the tool runs (working directory, token usage, recent tools), for hooks to read. */
  context?: ToolContext;
  /** Anything else for the hooks, copied into every event of the call. */
  metadata?: Record<string, unknown>;
}

/**
 * A typed key for a value that travels with one firing (or tool call), from a middleware to
 * the middleware inside it and to every hook the firing runs (`ctx.get(key)`). Make one with
 * {@link contextKey}; two keys are the same only when they are the same object.
 */
export interface ContextKey<T> {
  /** What the key is for, for debugging. */
  readonly name: string;
  /** Carries `T` for the type checker; never set. */
  readonly type?: T;
}

/**
 * A new {@link ContextKey}.
 *
 * @example
 * ```ts
 * const TENANT = contextKey<string>("tenant");
 * engine.use({
 *   name: "tenant",
 *   wrapFire: (event, ctx, next) => {
 *     ctx.set(TENANT, "acme");
 *     return next();
 *   },
 * });
 * engine.register({ event: "PreToolUse", handler: (event, ctx) => void ctx.get?.(TENANT) });
 * ```
 */
export function contextKey<T>(name: string): ContextKey<T> {
  return Object.freeze({ name });
}

/** What a middleware gets as `ctx`: the call's signal and the values that travel with it. */
export interface MiddlewareContext {
  /** The signal the caller gave `fire` (or `runTool`), if any. */
  readonly signal: AbortSignal | undefined;
  /** A value set for this call by this or an outer middleware. */
  get<T>(key: ContextKey<T>): T | undefined;
  /** Set a value for this call: inner middleware and (for a firing) its hooks read it. */
  set<T>(key: ContextKey<T>, value: T): void;
}

/** What a middleware may return from `wrapFire`. */
export type FireAnswer<E extends HookEvent> = HookResult<E> | HookResponse | undefined;

/**
 * One model call, as `wrapGenerate` sees it. A framework adapter (the AI SDK's
 * `hooksMiddleware`) builds it after GenerateStart hooks have had their say.
 */
export interface GenerateCall {
  /** The session the call belongs to. */
  readonly sessionId: string;
  /** The model and its settings. */
  readonly model: ModelConfig;
  /** The text of the last user message. */
  readonly prompt: string;
  /** The system prompt, when there is one. */
  readonly systemPrompt?: string;
  /** The names of the tools offered. */
  readonly tools: readonly string[];
  /** True for a streamed call: `next()` then resolves when the stream has ended. */
  readonly stream: boolean;
  /**
   * The framework's own call options (the AI SDK's `LanguageModelV3CallOptions`). Rewrite the
   * call with `next({ ...call, params: changed })`; the other fields are for reading.
   */
  readonly params: unknown;
}

/** What a model call produced, or what a `wrapGenerate` answers in its place. */
export interface GenerateOutput {
  /** The answer's text. */
  text: string;
  /** The tool calls the model asked for. */
  toolCalls?: ToolCall[];
  /** Tokens used; an answer from a cache may leave it out. */
  usage?: TokenUsage;
}

/**
 * Code that runs around the engine's work: around every firing (`wrapFire`) and, for tool
 * calls made through `runTool`, around the tool itself (`wrapToolCall`). Each wrapper gets the
 * call, a context, and `next`: call `next()` to go on (observe), `next(changed)` to go on with
 * a changed event or call (rewrite), or do not call it and answer in its place.
 *
 * Registered with `engine.use`, they run in `priority` order (lower is outer; ties by
 * registration order). A wrapper that throws, rejects or returns what it may not is handled
 * by its `failBehavior`: `continue` (the default) goes on as if it were not installed and puts
 * a warning in the audit stream; `block` blocks the firing (when the event can block) or fails
 * the tool call with a `BLOCKED` error.
 *
 * @example
 * ```ts
 * engine.use({
 *   name: "cache",
 *   events: ["PreToolUse"],
 *   wrapToolCall: async (call, ctx, next) => cache.get(call.args) ?? next(),
 * });
 * ```
 */
export interface HookMiddleware<N extends HookEventName = HookEventName> {
  /** Names the middleware in warnings, errors and results. */
  readonly name: string;
  /** Lower runs outside (first); default 0. */
  readonly priority?: number;
  /** What happens when it fails: `continue` (default) or `block`. */
  readonly failBehavior?: FailBehavior;
  /** The events `wrapFire` wraps; default every event. */
  readonly events?: readonly N[];
  /**
   * Around a firing. Return `next`'s result (changed or not), a hook answer (`block(…)`,
   * `modify(…)`, nothing for continue) to answer without running the hooks, or a whole result.
   */
  wrapFire?(
    event: HookEventMap[N],
    ctx: MiddlewareContext,
    next: (event?: HookEventMap[N]) => Promise<HookResult<HookEventMap[N]>>,
  ): FireAnswer<HookEventMap[N]> | Promise<FireAnswer<HookEventMap[N]>>;
  /**
   * Around a tool call of `runTool`, after PreToolUse and `authorize` let it through. Return
   * `next`'s output, or an output of your own (the tool then does not run; PostToolUse hooks
   * and the model see yours).
   */
  wrapToolCall?(
    call: ToolInvocation,
    ctx: MiddlewareContext,
    next: (call?: ToolInvocation) => Promise<ToolOutput>,
  ): ToolOutput | Promise<ToolOutput>;
  /**
   * Around a model call of a framework adapter (the AI SDK's `hooksMiddleware`), after
   * GenerateStart and before GenerateEnd. Return `next`'s output (changed or not), or an output
   * of your own (a generation answered from a cache: the model is not called; GenerateEnd
   * hooks and the caller see yours, as a stream when the call streams). In a stream, `next()`
   * resolves once the stream has ended and its text has reached the reader: a changed output
   * then is reported, not applied.
   */
  wrapGenerate?(
    call: GenerateCall,
    ctx: MiddlewareContext,
    next: (call?: GenerateCall) => Promise<GenerateOutput>,
  ): GenerateOutput | Promise<GenerateOutput>;
}

/** A middleware as the engine keeps it, checked. */
export interface Layer {
  readonly name: string;
  readonly priority: number;
  readonly failBehavior: FailBehavior;
  readonly events: ReadonlySet<string> | undefined;
  readonly seq: number;
  readonly middleware: HookMiddleware;
}

/** What the chains need from the engine. */
export interface LayerHost {
  readonly mergeOptions: MergeOptions;
  warn(message: string, about: { event?: HookEventName; eventId?: string }): void;
}

const FAIL_BEHAVIORS: ReadonlySet<unknown> = new Set(["continue", "block"]);

function invalid(field: string, message: string): HookError {
  return new HookError("INVALID_CONFIG", `middleware.${field}: ${message}`, {
    path: ["middleware", ...field.split(".")],
  });
}

/** Check a middleware for `engine.use`; throws a `HookError` naming the bad field. */
export function checkMiddleware(value: unknown, seq: number): Layer {
  if (value === null || typeof value !== "object") {
    throw new HookError("INVALID_CONFIG", "middleware: expected an object", {
      path: ["middleware"],
    });
  }
  const m = value as Partial<HookMiddleware> & Record<string, unknown>;
  if (typeof m.name !== "string" || m.name === "") {
    throw invalid("name", "expected a non-empty string");
  }
  const priority = m.priority ?? 0;
  if (typeof priority !== "number" || !Number.isFinite(priority)) {
    throw invalid("priority", "expected a finite number");
  }
  const failBehavior = m.failBehavior ?? "continue";
  if (!FAIL_BEHAVIORS.has(failBehavior)) {
    throw invalid("failBehavior", 'expected "continue" or "block"');
  }
  for (const slot of ["wrapFire", "wrapToolCall", "wrapGenerate"] as const) {
    if (m[slot] !== undefined && typeof m[slot] !== "function") {
      throw invalid(slot, "expected a function");
    }
  }
  if (m.wrapFire === undefined && m.wrapToolCall === undefined && m.wrapGenerate === undefined) {
    throw invalid("wrapFire", "a middleware needs wrapFire, wrapToolCall or wrapGenerate");
  }
  let events: Set<string> | undefined;
  if (m.events !== undefined) {
    if (!Array.isArray(m.events)) throw invalid("events", "expected an array of event names");
    events = new Set();
    m.events.forEach((name: unknown, i: number) => {
      if (!isHookEventName(name)) {
        throw invalid(`events.${i}`, `${JSON.stringify(name)} is not an event name`);
      }
      events!.add(name);
    });
  }
  return {
    name: m.name,
    priority,
    failBehavior: failBehavior as FailBehavior,
    events,
    seq,
    middleware: m as HookMiddleware,
  };
}

/** The values that travel with one call; what hooks read through `ctx.get`. */
export interface ContextValues {
  get<T>(key: ContextKey<T>): T | undefined;
}

/** The context of one call through the chain, shared by all of its middleware. */
export class MiddlewareCall implements MiddlewareContext, ContextValues {
  readonly signal: AbortSignal | undefined;
  #values: Map<ContextKey<unknown>, unknown> | undefined;

  constructor(signal: AbortSignal | undefined) {
    this.signal = signal;
  }

  get<T>(key: ContextKey<T>): T | undefined {
    return this.#values?.get(key) as T | undefined;
  }

  set<T>(key: ContextKey<T>, value: T): void {
    (this.#values ??= new Map()).set(key, value);
  }
}

/** No value yet. */
const NONE: unique symbol = Symbol("none");

function failureOf(layer: Layer, slot: string, error: unknown): HookError {
  let message: string;
  try {
    message = HookError.from(error).message;
  } catch {
    message = errorText(error);
  }
  return new HookError("HANDLER_FAILED", `middleware ${layer.name}: ${slot} failed: ${message}`, {
    cause: error,
    details: { middleware: layer.name },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** What `next(event)` was given, checked: the same event type, and a valid event. */
function checkRewrite<E extends HookEvent>(layer: Layer, before: E, after: unknown): E {
  if (after === before) return before;
  const field = `middleware ${layer.name}: next(event)`;
  if (!isObject(after)) throw new HookError("INVALID_EVENT", `${field}: expected an event object`);
  if (after.eventType !== before.eventType) {
    throw new HookError(
      "INVALID_EVENT",
      `${field}.eventType: must stay ${before.eventType}, got ${JSON.stringify(after.eventType)}`,
      { path: ["eventType"] },
    );
  }
  const checked = validateEvent(after);
  if (!checked.success) {
    throw new HookError("INVALID_EVENT", `${field}: ${checked.error.message}`, {
      path: checked.error.path,
      cause: checked.error,
    });
  }
  return after as E;
}

function isResult(value: unknown): value is HookResult {
  return isObject(value) && Array.isArray(value.outcomes);
}

const ACTIONS: ReadonlySet<unknown> = new Set(["continue", "block", "retry"]);

/** What a `wrapFire` returned, as the firing's result; throws a HookError naming what is wrong. */
function fireAnswer<E extends HookEvent>(
  layer: Layer,
  event: E,
  value: unknown,
  nextCalled: boolean,
  host: LayerHost,
): HookResult<E> {
  const field = `middleware ${layer.name}: wrapFire's answer`;
  if (isResult(value)) {
    if (!ACTIONS.has(value.action)) {
      throw new HookError("INVALID_OUTPUT", `${field}.action: expected continue, block or retry`);
    }
    if (!isObject(value.event) || value.event.eventType !== event.eventType) {
      throw new HookError("INVALID_OUTPUT", `${field}.event: expected a ${event.eventType} event`);
    }
    return value as unknown as HookResult<E>;
  }
  if (value === undefined && nextCalled) {
    // An observer that forgot `return`: going on as continue would drop the hooks' answer.
    throw new HookError(
      "INVALID_OUTPUT",
      `${field}: nothing was returned after calling next; return next's result`,
    );
  }
  const response = checkHookResponse(value);
  if (response instanceof HookError) {
    throw new HookError("INVALID_OUTPUT", `${field}: ${response.message}`, { cause: response });
  }
  return mergeOutcomes(
    event,
    [
      {
        hookId: `middleware:${layer.name}`,
        name: layer.name,
        status: "ok",
        response,
        failBehavior: layer.failBehavior,
        duration: 0,
      },
    ],
    host.mergeOptions,
  );
}

/** A firing a fail-closed middleware's failure blocked. */
function blockedBy<E extends HookEvent>(layer: Layer, event: E, error: HookError): HookResult<E> {
  const result = emptyResult(event);
  result.action = "block";
  result.reason = error.message;
  result.blockedBy = `middleware:${layer.name}`;
  result.permission = "deny";
  result.warnings = [error.message];
  return result;
}

/**
 * A check of what a layer gave `next(call)`: the fields in `kept` unchanged, and `object` still
 * an object. Throws a HookError naming the field.
 */
function nextCallCheck<T extends object>(
  kept: readonly (keyof T & string)[],
  object: keyof T & string,
): (layer: Layer, before: T, after: unknown) => T {
  return (layer, before, after) => {
    if (after === before) return before;
    const field = `middleware ${layer.name}: next(call)`;
    if (!isObject(after)) {
      throw new HookError("INVALID_MODIFICATION", `${field}: expected an object`);
    }
    for (const key of kept) {
      if (after[key] !== before[key]) {
        throw new HookError(
          "INVALID_MODIFICATION",
          `${field}.${key}: must stay ${String(before[key])}`,
          { path: [key] },
        );
      }
    }
    if (!isObject(after[object])) {
      throw new HookError("INVALID_MODIFICATION", `${field}.${object}: expected an object`, {
        path: [object],
      });
    }
    return after as T;
  };
}

/** What `next(call)` was given, checked: the same tool, with arguments. */
const checkCall = nextCallCheck<ToolInvocation>(["tool"], "args");

/** What a `wrapToolCall` returned, checked: a tool output. */
function toolAnswer(layer: Layer, value: unknown): ToolOutput {
  const field = `middleware ${layer.name}: wrapToolCall's answer`;
  if (!isObject(value)) {
    throw new HookError("INVALID_OUTPUT", `${field}: expected { output: string }`);
  }
  if (typeof value.output !== "string") {
    throw new HookError("INVALID_OUTPUT", `${field}.output: expected a string`);
  }
  if (value.exitCode !== undefined && !Number.isInteger(value.exitCode)) {
    throw new HookError("INVALID_OUTPUT", `${field}.exitCode: expected an integer`);
  }
  if (value.success !== undefined && typeof value.success !== "boolean") {
    throw new HookError("INVALID_OUTPUT", `${field}.success: expected a boolean`);
  }
  return value as unknown as ToolOutput;
}

/** What `next(call)` was given, checked: the same session and kind of call. */
const checkGenerateCall = nextCallCheck<GenerateCall>(["sessionId", "stream"], "params");

/** What a `wrapGenerate` returned, checked: a generation output. */
function generateAnswer(layer: Layer, value: unknown): GenerateOutput {
  const field = `middleware ${layer.name}: wrapGenerate's answer`;
  if (!isObject(value))
    throw new HookError("INVALID_OUTPUT", `${field}: expected { text: string }`);
  if (typeof value.text !== "string") {
    throw new HookError("INVALID_OUTPUT", `${field}.text: expected a string`);
  }
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) {
      throw new HookError("INVALID_OUTPUT", `${field}.toolCalls: expected an array`);
    }
    value.toolCalls.forEach((call: unknown, i: number) => {
      if (
        !isObject(call) ||
        typeof call.id !== "string" ||
        typeof call.name !== "string" ||
        !isObject(call.args)
      ) {
        throw new HookError(
          "INVALID_OUTPUT",
          `${field}.toolCalls.${i}: expected { id: string, name: string, args: object }`,
        );
      }
    });
  }
  return value as unknown as GenerateOutput;
}

/** One kind of wrapped call: what the chain of its slot checks and does on failure. */
interface Slot<T, R> {
  readonly key: "wrapFire" | "wrapToolCall" | "wrapGenerate";
  /**
   * What `next` resolves to is a valid answer as it is (a firing's merged result, which the
   * engine or an inner layer made and checked): a layer that hands it back unchanged needs no
   * check. Not so for a tool's or a model's own output, which each layer's answer check sees.
   */
  readonly nextIsAnswer: boolean;
  applies(layer: Layer, value: T): boolean;
  /** What `next(changed)` was given, checked; throws a HookError naming what is wrong. */
  checkNext(layer: Layer, before: T, after: unknown): T;
  /** What the wrapper returned, checked; throws a HookError naming what is wrong. */
  answer(layer: Layer, value: T, answer: unknown, nextCalled: boolean, host: LayerHost): R;
  /** The answer of a failed fail-closed layer (or a throw); undefined to go on as if absent. */
  failClosed(layer: Layer, value: T, failure: HookError, host: LayerHost): R | undefined;
}

/**
 * Run `value` through the layers of `slot` from `from` on, then through `inner`. Each layer's
 * `next` runs the rest of the chain; what fails inside `next` (an abort, the tool's own error)
 * passes through as it is, and only the layer's own failure meets its fail behaviour.
 */
function through<T, R>(
  slot: Slot<T, R>,
  layers: readonly Layer[],
  from: number,
  value: T,
  ctx: MiddlewareCall,
  inner: (value: T) => Promise<R>,
  host: LayerHost,
): Promise<R> {
  for (let i = from; i < layers.length; i++) {
    if (slot.applies(layers[i]!, value)) return wrap(slot, layers, i, value, ctx, inner, host);
  }
  return inner(value);
}

function wrap<T, R>(
  slot: Slot<T, R>,
  layers: readonly Layer[],
  at: number,
  value: T,
  ctx: MiddlewareCall,
  inner: (value: T) => Promise<R>,
  host: LayerHost,
): Promise<R> {
  const layer = layers[at]!;
  let pending: Promise<R> | undefined;
  let innerError: unknown = NONE;
  const next = (changed?: T): Promise<R> => {
    let checked: T;
    try {
      checked = changed === undefined ? value : slot.checkNext(layer, value, changed);
    } catch (error) {
      return Promise.reject(error);
    }
    pending = through(slot, layers, at + 1, checked, ctx, inner, host);
    pending.catch((error: unknown) => {
      innerError = error;
    });
    return pending;
  };
  let answer: unknown;
  try {
    const fn = layer.middleware[slot.key] as (v: T, c: MiddlewareCall, n: typeof next) => unknown;
    answer = fn.call(layer.middleware, value, ctx, next);
  } catch (error) {
    answer = Promise.reject(error);
  }
  // The layer handed back what `next` returned (an observer, a guard that let the firing
  // through): that promise is the answer, with no wait of its own.
  if (slot.nextIsAnswer && pending !== undefined && answer === pending) return pending;
  return Promise.resolve(answer)
    .then((settled) => slot.answer(layer, value, settled, pending !== undefined, host))
    .catch((error: unknown) => {
      if (innerError !== NONE && error === innerError) throw error;
      const failure = failureOf(layer, slot.key, error);
      const closed = slot.failClosed(layer, value, failure, host);
      if (closed !== undefined) return closed;
      // Fail open: as if the middleware were not there; what it started runs once, not twice.
      return pending ?? through(slot, layers, at + 1, value, ctx, inner, host);
    });
}

const FIRE: Slot<HookEvent, HookResult> = {
  key: "wrapFire",
  nextIsAnswer: true,
  applies: (layer, event) =>
    layer.middleware.wrapFire !== undefined &&
    (layer.events === undefined || layer.events.has(event.eventType)),
  checkNext: checkRewrite,
  answer: fireAnswer,
  failClosed(layer, event, failure, host) {
    host.warn(failure.message, { event: event.eventType, eventId: event.eventId });
    return layer.failBehavior === "block" && specOf(event.eventType)?.canBlock === true
      ? blockedBy(layer, event, failure)
      : undefined;
  },
};

const TOOL: Slot<ToolInvocation, ToolOutput> = {
  key: "wrapToolCall",
  nextIsAnswer: false,
  applies: (layer) => layer.middleware.wrapToolCall !== undefined,
  checkNext: checkCall,
  answer: (layer, _call, value) => toolAnswer(layer, value),
  failClosed(layer, call, failure, host) {
    host.warn(failure.message, {});
    if (layer.failBehavior !== "block") return undefined;
    throw new HookError("BLOCKED", `${call.tool} was stopped: ${failure.message}`, {
      cause: failure,
      details: { tool: call.tool, middleware: layer.name },
    });
  },
};

const GENERATE: Slot<GenerateCall, GenerateOutput> = {
  key: "wrapGenerate",
  nextIsAnswer: false,
  applies: (layer) => layer.middleware.wrapGenerate !== undefined,
  checkNext: checkGenerateCall,
  answer: (layer, _call, value) => generateAnswer(layer, value),
  failClosed(layer, _call, failure, host) {
    host.warn(failure.message, {});
    if (layer.failBehavior !== "block") return undefined;
    throw new HookError("BLOCKED", `the model call was stopped: ${failure.message}`, {
      cause: failure,
      details: { middleware: layer.name },
    });
  },
};

/** Run `event` through the engine's fire layers, then through `inner` (the hooks). */
export function fireThrough<E extends HookEvent>(
  layers: readonly Layer[],
  event: E,
  ctx: MiddlewareCall,
  inner: (event: E) => Promise<HookResult<E>>,
  host: LayerHost,
): Promise<HookResult<E>> {
  return through(FIRE, layers, 0, event, ctx, inner as never, host) as Promise<HookResult<E>>;
}

/** Run a tool call through the engine's tool layers, then through `inner` (the tool). */
export function toolThrough(
  layers: readonly Layer[],
  call: ToolInvocation,
  ctx: MiddlewareCall,
  inner: (call: ToolInvocation) => Promise<ToolOutput>,
  host: LayerHost,
): Promise<ToolOutput> {
  return through(TOOL, layers, 0, call, ctx, inner, host);
}

/** Run a model call through the engine's generate layers, then through `inner` (the model). */
export function generateThrough(
  layers: readonly Layer[],
  call: GenerateCall,
  ctx: MiddlewareCall,
  inner: (call: GenerateCall) => Promise<GenerateOutput>,
  host: LayerHost,
): Promise<GenerateOutput> {
  return through(GENERATE, layers, 0, call, ctx, inner, host);
}
