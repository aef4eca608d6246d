import * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import { parseOrThrow, renamedOption } from "../base/validation.js";
import type { HookEventMap, HookEventName } from "../events/event-schemas.js";
import { resolveEventName } from "../events/event-spec.js";
import { unknownEventMessage } from "../events/suggest-event.js";
import type { HookResponse } from "../merge/hook-response.js";
import { MAX_DELAY_MS } from "../merge/hook-response.js";
import type { FailBehavior } from "../merge/merge.js";
import type { Matcher, MatcherOptions, RegexCompiler, ToolMatcher } from "./matcher.js";
import type { ContextKey } from "./middleware.js";

/** Names accepted where an event name is expected: the canonical ones plus aliases. */
export type HookEventNameInput = HookEventName | "ToolError";
/** The canonical name for an accepted name. */
export type CanonicalEventName<N extends HookEventNameInput> = N extends "ToolError"
  ? "PostToolUseFailure"
  : N;

/** What a handler gets besides the event. */
export interface HookContext {
  /** Aborted when the hook times out or the firing is cancelled. Pass it to fetch, spawn, … */
  readonly signal: AbortSignal;
  /** The id of the hook being run (the one `register` returned). */
  readonly hookId: string;
  /** The session the event belongs to. */
  readonly sessionId: string;
  /** The firing this call answers; unique per firing, shared by every hook it runs. */
  readonly eventId: string;
  /**
   * Call `listener` once, with the signal's reason, when the hook is aborted (it timed out or
   * the firing was cancelled); at once if that already happened. Returns the way to stop
   * listening. Cheaper than `signal` for a handler that only needs to hear about an abort:
   * it creates no `AbortController`. `HookEngine` and `A3sClient` always provide it; a context
   * made by hand may not.
   *
   * @example
   * ```ts
   * handler: (event, ctx) => new Promise((resolve, reject) => {
   *   const id = queue.send(event, resolve);
   *   ctx.onAbort?.((reason) => { queue.cancel(id); reject(reason); });
   * }),
   * ```
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  /**
   * A value the host's middleware set for this firing (see `engine.use`), or undefined.
   * `HookEngine` always provides it; a context made by hand may not.
   */
  get?<T>(key: ContextKey<T>): T | undefined;
}

/** What a handler may return: a response, or nothing for "continue". */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is a valid "continue".
export type HookHandlerResult = HookResponse | undefined | void;

/** A hook function, typed by the event it handles. */
export type HookHandler<E extends HookEventName = HookEventName> = (
  event: HookEventMap[E],
  ctx: HookContext,
) => HookHandlerResult | PromiseLike<HookHandlerResult>;

/** Per-hook settings shared by every way of registering. */
export interface HookOptions {
  /** Lower runs earlier; ties run in registration order. Default 0. */
  priority?: number;
  /**
   * Milliseconds before the hook is aborted and contributes its fail behaviour, counted from
   * the end of the turn that started it (a hook that has answered by then needs no timer).
   */
  timeoutMs?: number;
  /** What a failed or timed-out hook contributes: `continue` (default) or `block`. */
  failBehavior?: FailBehavior;
  /** Fire-and-forget: started, never awaited, never able to block. */
  async?: boolean;
  /** Unregister after the first firing that matches. */
  once?: boolean;
  /** Unregister when this signal aborts. */
  signal?: AbortSignal;
  /** A caller-chosen id, unique in the engine. One is made when left out. */
  id?: string;
  /** A human name for listings and messages. */
  name?: string;
  /** Where the hook came from (`settings:/path`, `remote:client-id`, …), for listings. */
  source?: string;
  /**
   * The engine that compiles the matcher's regular expressions and globs; JavaScript's
   * `RegExp` when left out (fine for patterns the host writes). For patterns from untrusted
   * places pass a linear-time one, such as `linearRegex` of `@a3s-lab/hooks-node`, so no
   * pattern can stall the event loop. See {@link MatcherOptions}.
   */
  regex?: RegexCompiler;
}

/** One hook for one event. */
export interface HookRegistration<N extends HookEventNameInput = HookEventName>
  extends HookOptions {
  /** The event to hook (`"PreToolUse"`, …); the alias `ToolError` means `PostToolUseFailure`. */
  event: N;
  /** Called with the event (typed by `event`) for every firing the matcher accepts. */
  handler: HookHandler<CanonicalEventName<N>>;
  /**
   * Which firings to run for: a string (name, `a|b`, `mcp__*`, a regular expression), a tool
   * matcher or a predicate; every firing when left out.
   */
  matcher?: Matcher<CanonicalEventName<N>>;
}

/** A multi-event hook object: one handler for several events. */
export interface MultiEventHook<N extends HookEventNameInput = HookEventName>
  extends Omit<HookOptions, "name"> {
  /** A human name for listings and messages; the per-event ids start with it. */
  name: string;
  /** The events to hook, each registered as a hook of its own. */
  events: readonly N[];
  /** A string or tool matcher, applied to each event that has a matcher target. */
  matcher?: string | ToolMatcher;
  /**
   * Called for every matching firing of any of `events`; check `event.eventType` to tell them
   * apart.
   */
  execute: HookHandler<CanonicalEventName<N>>;
}

/** What `register` returns: the id, and the way to undo it (also `using`-disposable). */
export interface HookHandle extends Disposable {
  /** The hook's id (for a multi-event hook, the id its per-event ids start with). */
  readonly id: string;
  /** Every id this registration made (one per event). */
  readonly ids: readonly string[];
  /** Remove the hook(s). Returns false when already removed. */
  unregister(): boolean;
}

const isFunction = (v: unknown) => typeof v === "function";
const isSignal = (v: unknown) =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as AbortSignal).addEventListener === "function" &&
  "aborted" in v;

const toolMatcherSchema = z.strictObject({
  tool: z.optional(z.string()),
  pathPattern: z.optional(z.string()),
  commandPattern: z.optional(z.string()),
});

const optionsShape = {
  priority: z.optional(z.number().check(z.refine(Number.isFinite, "expected a finite number"))),
  timeoutMs: z.optional(z.number().check(z.positive(), z.lte(MAX_DELAY_MS))),
  timeout: renamedOption("timeoutMs"),
  failBehavior: z.optional(z.enum(["continue", "block"])),
  async: z.optional(z.boolean()),
  once: z.optional(z.boolean()),
  signal: z.optional(z.custom<AbortSignal>(isSignal, "expected an AbortSignal")),
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  name: z.optional(z.string().check(z.maxLength(256))),
  source: z.optional(z.string().check(z.maxLength(4096))),
  regex: z.optional(z.custom<RegexCompiler>(isFunction, "expected a function")),
};

const matcherSchema = z.optional(
  z.union([
    z.string().check(z.maxLength(4096)),
    toolMatcherSchema,
    z.custom<(e: unknown) => boolean>(isFunction, "expected a function"),
  ]),
);

const registrationSchema = z.strictObject({
  event: z.string(),
  handler: z.custom<HookHandler>(isFunction, "expected a function"),
  matcher: matcherSchema,
  ...optionsShape,
});

const multiSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  events: z.array(z.string()).check(z.minLength(1)),
  matcher: z.optional(z.union([z.string().check(z.maxLength(4096)), toolMatcherSchema])),
  execute: z.custom<HookHandler>(isFunction, "expected a function"),
  ...Object.fromEntries(Object.entries(optionsShape).filter(([k]) => k !== "name")),
});

/** A registration after validation, with its event name made canonical. */
export type ValidRegistration = HookRegistration<HookEventName>;

function canonicalEvent(name: string, path: (string | number)[]): HookEventName {
  const canonical = resolveEventName(name);
  if (!canonical) {
    throw new HookError("UNKNOWN_EVENT", `${path.join(".")}: ${unknownEventMessage(name)}`, {
      path,
    });
  }
  return canonical;
}

/** Validate either registration form; return one registration per event. */
export function normalizeRegistration(input: unknown): ValidRegistration[] {
  if (input === null || typeof input !== "object") {
    throw new HookError(
      "INVALID_CONFIG",
      `registration: expected an object, got ${input === null ? "null" : typeof input}`,
    );
  }
  if ("events" in input || "execute" in input) {
    const hook = parseOrThrow(multiSchema, input, "INVALID_CONFIG", [
      "registration",
    ]) as unknown as MultiEventHook;
    const events = hook.events.map((e, i) => canonicalEvent(e, ["registration", "events", i]));
    // Two spellings of one event would make two hooks with one id, the first unreachable.
    const twice = events.findIndex((event, i) => events.indexOf(event) !== i);
    if (twice !== -1) {
      throw new HookError(
        "INVALID_CONFIG",
        `registration.events.${twice}: ${events[twice]} is listed twice`,
        { path: ["registration", "events", twice] },
      );
    }
    const { events: _e, execute, name, ...options } = hook;
    return events.map((event) => {
      const registration: ValidRegistration = {
        ...options,
        event,
        handler: execute as HookHandler,
        name,
      };
      if (options.id !== undefined)
        registration.id = events.length > 1 ? `${options.id}:${event}` : options.id;
      return registration;
    });
  }
  const registration = parseOrThrow(registrationSchema, input, "INVALID_CONFIG", ["registration"]);
  const event = canonicalEvent(registration.event, ["registration", "event"]);
  return [{ ...(registration as unknown as ValidRegistration), event }];
}
