import type * as z from "zod/mini";
import { HookError } from "../base/hook-error.js";
import {
  type AnswerField,
  type AnswerFieldInit,
  buildAnswerFields,
  sameAnswerFields,
} from "./answer-fields.js";
import {
  baseEventFields,
  builtinEventRows,
  eventObject,
  eventSchemas,
  type HookEvent,
  type HookEventName,
} from "./event-schemas.js";

/**
 * What a string matcher is tested against: the name of one of the event's own top-level fields.
 * A string field is tested as it is; an object field (like `model`) by its `name`.
 */
export type MatcherTarget = string;

/**
 * What the catalogue knows about one event: its schema, what a matcher tests, whether it can
 * block, what a hook may modify. {@link defineEvent} returns one; `eventSpecs[name]` reads one.
 */
export interface EventSpec<
  N extends string = HookEventName,
  S extends z.core.$ZodType = z.core.$ZodType,
> {
  /** The event's canonical name (`PreToolUse`). */
  readonly name: N;
  /** The full schema: `eventType`, the base fields every event has, then the event's own. */
  readonly schema: S;
  /** May a hook block this event? A block on an event that cannot block is a warning. */
  readonly canBlock: boolean;
  /** Dotted paths a `modified` patch may touch: `args` allows `args.command` too. */
  readonly modifiable: readonly string[];
  /** The field a string matcher tests, or undefined when this event has none. */
  readonly matcherTarget: MatcherTarget | undefined;
  /** A tool event (its matcher target is `tool`): object matchers (`{ tool, pathPattern, commandPattern }`) apply. */
  readonly toolEvent: boolean;
  /**
   * The event's answer fields (see {@link EventSpecInit.answers}): what a hook may answer
   * through Claude Code's `hookSpecificOutput`, and how several hooks' answers combine.
   */
  readonly answers: Readonly<Record<string, AnswerField>>;
}

/** What {@link defineEvent} takes besides the name. */
export interface EventSpecInit<S extends z.core.$ZodObject = z.core.$ZodObject> {
  /**
   * The event's own fields, as a zod object (`zod` or `zod/mini`). `eventType`, `eventId`,
   * `sessionId`, `timestamp` and `metadata` are added; the schema may not declare them.
   */
  schema: S;
  /** May a hook block this event? Default false: a block is then a warning and the event goes on. */
  canBlock?: boolean;
  /** Top-level fields (or dotted paths below one) a hook may change with `modify`. Default none. */
  modifiable?: readonly string[];
  /** The top-level field a string matcher tests. Default none: only `"*"` or no matcher applies. */
  matcherTarget?: string;
  /**
   * Answer fields: optional top-level fields of the schema that hooks fill in, such as Claude
   * Code's `watchPaths` or `worktreePath`. Each is modifiable (it need not be listed in
   * `modifiable`): an SDK hook answers it with `modify({ field })`; a command, http, prompt,
   * agent or mcp_tool hook with `hookSpecificOutput.field`, checked by the field's schema (a bad
   * value fails that hook with an `INVALID_OUTPUT` error naming the field). The merged answer is
   * on the result's `event`. `merge: "union"` adds up the array answers of several hooks
   * (duplicates dropped, at most `maxItems`, default 100); the default, `replace`, lets a later
   * hook win. Default none.
   *
   * @example
   * ```ts
   * defineEvent("ReviewDone", {
   *   schema: z.object({ pr: z.string(), labels: z.optional(z.array(z.string())) }),
   *   answers: { labels: { merge: "union", maxItems: 20 } },
   * });
   * // a command hook prints {"hookSpecificOutput": {"labels": ["needs-docs"]}}
   * const result = await engine.fire(createEvent("ReviewDone", { sessionId, pr: "42" }));
   * result.event.labels; // every hook's labels, once each
   * ```
   */
  answers?: Readonly<Record<string, AnswerFieldInit>>;
}

/** The full schema {@link defineEvent} builds for event `N` from its own fields `S`. */
// The shape is inferred inline: a local alias here is dropped by the declaration bundler.
export type DefinedEventSchema<N extends string, S extends z.core.$ZodObject> = ReturnType<
  typeof eventObject<N, S extends z.core.$ZodObject<infer T> ? T : never>
>;

// ── The catalogue: built-in events per copy, host-defined events shared by every copy ──

/**
 * The events hosts define, shared through `globalThis` because one realm often loads several
 * copies of this package: the ESM build for the app and the CommonJS build (two files: the entry
 * and `internal`) for a dependency that requires it. Each copy must see the events a host defined
 * through any other. A frozen object whose methods close over private state, so no script in the
 * realm can rewrite an entry in place. Built-in events are never read from it: each copy keeps its
 * own, since the store may have been planted, or made by another release with other built-ins.
 */
interface SharedEvents {
  /** The layout; a copy that finds another (or another shape) keeps a store of its own. */
  readonly version: typeof LAYOUT;
  /** The host-defined event at `index`, in the order they were defined; undefined past the end. */
  at(index: number): EventSpec<string> | undefined;
  /** Stores `spec` under its name unless the name is taken; returns the entry stored there. */
  add(spec: EventSpec<string>): EventSpec<string>;
  /**
   * The own-fields schema of a definition a copy made (so a hand-made object cannot pose as
   * one); with `fields`, records it first (once: a later call cannot change it).
   */
  fields(definition: object, fields?: z.core.$ZodObject): z.core.$ZodObject | undefined;
  /**
   * The own-fields schema that stands for the ready definition `key` (its name and field names)
   * in every copy: the first one given. Each copy builds its own `claudeCodeEvents`, so without
   * it the same ready event defined through two copies would read as two definitions.
   */
  ready(key: string, fields: z.core.$ZodObject): z.core.$ZodObject;
}

const SHARED_KEY = Symbol.for("@a3s-lab/hooks-core/event-catalogue");
const LAYOUT = 2;

function newSharedEvents(): SharedEvents {
  const list: EventSpec<string>[] = [];
  const byName = new Map<string, EventSpec<string>>();
  const vouched = new WeakMap<object, z.core.$ZodObject>();
  const ready = new Map<string, z.core.$ZodObject>();
  return Object.freeze({
    version: LAYOUT,
    at: (index: number) => list[index],
    add(spec: EventSpec<string>) {
      const taken = byName.get(spec.name);
      if (taken) return taken;
      byName.set(spec.name, Object.freeze(spec));
      list.push(spec);
      return spec;
    },
    fields(definition: object, fields?: z.core.$ZodObject) {
      if (fields && !vouched.has(definition)) vouched.set(definition, fields);
      return vouched.get(definition);
    },
    ready(key: string, fields: z.core.$ZodObject) {
      if (!ready.has(key)) ready.set(key, fields);
      return ready.get(key)!;
    },
  });
}

/** The realm's store, published by the first copy to load; a private one when that fails. */
function realmEvents(): SharedEvents {
  const realm = globalThis as { [SHARED_KEY]?: SharedEvents };
  try {
    const found = realm[SHARED_KEY];
    if (found === undefined) {
      const own = newSharedEvents();
      // Non-writable and non-configurable: nobody can swap the store once a copy uses it.
      Object.defineProperty(realm, SHARED_KEY, { value: own });
      return own;
    }
    if (
      Object.isFrozen(found) &&
      found.version === LAYOUT &&
      [found.at, found.add, found.fields, found.ready].every((f) => typeof f === "function")
    ) {
      return found;
    }
  } catch {
    // A frozen global object, or a store whose reads throw: this copy keeps its own.
  }
  // Another layout (an older or future version, or anything planted) is left as it is.
  return newSharedEvents();
}

const shared = realmEvents();

// This copy's view: its built-in events, then the host-defined ones it has read from the store.
const specs: Record<string, EventSpec<string>> = Object.create(null);
/** Canonical names, built-in ones first, then in the order they were defined. */
const names: string[] = [];
const builtins = new Set<string>();
/** Every accepted spelling → canonical name. */
const lookup = new Map<string, string>();
/** Definitions this copy built, with their own-fields schema (undefined for built-ins). */
const built = new WeakMap<object, z.core.$ZodObject | undefined>();
/** How many of the store's entries this copy has read. */
let seen = 0;

const NAME = /^[A-Z][A-Za-z0-9]{0,63}$/;
const FIELD = /^[A-Za-z_$][\w$]*$/;
const BASE = new Set(["eventType", ...Object.keys(baseEventFields)]);

const snake = (name: string) => name.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();
const spellingsOf = (name: string) => [name, name.toLowerCase(), snake(name)];

function invalid(path: readonly (string | number)[], message: string): HookError {
  return new HookError("INVALID_CONFIG", `${path.join(".")}: ${message}`, { path: [...path] });
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw invalid(
      ["name"],
      `expected a PascalCase event name of letters and digits, at most 64 characters, got ${JSON.stringify(name)}`,
    );
  }
}

/** Validate a definition's parts and freeze them into a spec; registers nothing. */
function buildSpec(
  name: unknown,
  init: unknown,
  full?: z.core.$ZodObject,
  readyDefinition = false,
): EventSpec<string> {
  checkName(name);
  if (init === null || typeof init !== "object") {
    throw invalid(
      ["definition"],
      `expected { schema, canBlock, modifiable, matcherTarget, answers }`,
    );
  }
  const {
    schema,
    canBlock = false,
    modifiable = [],
    matcherTarget,
    answers,
  } = init as EventSpecInit;
  const def = (schema as Partial<z.core.$ZodObject> | undefined)?._zod?.def;
  if (def?.type !== "object")
    throw invalid(["schema"], "expected a zod object of the event's fields");
  const own = full ? undefined : def.shape;
  const fields = Object.keys(def.shape).filter((k) => full === undefined || !BASE.has(k));
  for (const field of fields) {
    if (!full && BASE.has(field)) {
      throw invalid(["schema", field], "is a field every event has; leave it out of the schema");
    }
  }
  if (typeof canBlock !== "boolean") throw invalid(["canBlock"], "expected a boolean");
  if (!Array.isArray(modifiable)) throw invalid(["modifiable"], "expected an array of field names");
  modifiable.forEach((path: unknown, i) => {
    const head = typeof path === "string" ? path.split(".") : [];
    if (
      !head.every((k) => FIELD.test(k)) ||
      (head[0] !== "metadata" && !fields.includes(head[0]!))
    ) {
      throw invalid(
        ["modifiable", i],
        `expected one of the event's fields (or a dotted path below one), got ${JSON.stringify(path)}`,
      );
    }
  });
  if (
    matcherTarget !== undefined &&
    (typeof matcherTarget !== "string" || !fields.includes(matcherTarget))
  ) {
    throw invalid(
      ["matcherTarget"],
      `expected one of the event's fields (${fields.join(", ") || "none"}), got ${JSON.stringify(matcherTarget)}`,
    );
  }
  const answerFields = buildAnswerFields(answers, def.shape, BASE);
  const answered = Object.keys(answerFields).filter((f) => !modifiable.includes(f));
  const spec: EventSpec<string> = Object.freeze({
    name,
    schema: full ?? eventObject(name, def.shape),
    canBlock,
    modifiable: Object.freeze([...modifiable, ...answered]) as readonly string[],
    matcherTarget,
    toolEvent: matcherTarget === "tool",
    answers: answerFields,
  });
  if (own) {
    const identity = readyDefinition
      ? shared.ready(`${name}(${Object.keys(own).join(",")})`, schema as z.core.$ZodObject)
      : (schema as z.core.$ZodObject);
    built.set(spec, identity);
    shared.fields(spec, identity);
  } else built.set(spec, undefined);
  return spec;
}

const fieldsOf = (definition: object) => built.get(definition) ?? shared.fields(definition);
const isDefinition = (value: object) => built.has(value) || shared.fields(value) !== undefined;

function sameSpec(a: EventSpec<string>, b: EventSpec<string>): boolean {
  const fields = fieldsOf(a);
  return (
    fields !== undefined &&
    fields === fieldsOf(b) &&
    a.canBlock === b.canBlock &&
    a.matcherTarget === b.matcherTarget &&
    a.modifiable.length === b.modifiable.length &&
    a.modifiable.every((m, i) => m === b.modifiable[i]) &&
    sameAnswerFields(a.answers, b.answers)
  );
}

/** Adds `spec` to this copy's view. */
function keep(spec: EventSpec<string>): void {
  for (const spelling of spellingsOf(spec.name)) lookup.set(spelling, spec.name);
  specs[spec.name] = spec;
  names.push(spec.name);
}

/**
 * Reads the entries other copies added to the store since the last call. An entry under one of
 * this copy's names or spellings (a built-in, planted or of another release) is skipped.
 */
function sync(): void {
  for (let spec = shared.at(seen); spec !== undefined; spec = shared.at(++seen)) {
    const name = spec?.name;
    if (
      typeof name === "string" &&
      NAME.test(name) &&
      Object.isFrozen(spec) &&
      !spellingsOf(name).some((spelling) => lookup.has(spelling))
    ) {
      keep(spec);
    }
  }
}

function register(spec: EventSpec<string>, builtin: boolean): EventSpec<string> {
  // Built-ins register while this module loads, before any entry of the store is read.
  if (!builtin) sync();
  const existing = specs[spec.name];
  if (existing) {
    if (existing === spec || (!builtins.has(spec.name) && sameSpec(existing, spec)))
      return existing;
    throw invalid(
      ["name"],
      builtins.has(spec.name)
        ? `${spec.name} is a built-in event and cannot be redefined`
        : `${spec.name} is already defined differently`,
    );
  }
  for (const spelling of spellingsOf(spec.name)) {
    const taken = lookup.get(spelling);
    if (taken !== undefined) {
      throw invalid(["name"], `${spec.name} is too close to ${taken} (both read as "${spelling}")`);
    }
  }
  if (builtin) builtins.add(spec.name);
  else if (shared.add(spec) !== spec) {
    throw invalid(["name"], `${spec.name} is already defined differently`);
  }
  keep(spec);
  return spec;
}

/**
 * Add an event to the catalogue, so hooks can be registered for it, fired, matched, merged,
 * sent over the wire and named in settings files like the built-in events. Throws
 * `HookError("INVALID_CONFIG")` naming the bad field; defining the same definition again
 * does nothing, so two libraries may both opt in to one event. Built-in events cannot be
 * redefined.
 *
 * Pass a name and the event's parts, or a ready definition such as `claudeCodeEvents.TeammateIdle`.
 * To type the event, add it to {@link HookEventMap} (see the example). Defined events are one
 * per JavaScript realm: an event defined through the ESM build is known to the CommonJS build a
 * dependency loaded, and the other way round. Built-in events are not shared: each copy of the
 * package uses its own, so nothing another copy or script puts in the realm changes them.
 *
 * @example
 * ```ts
 * import * as z from "zod";
 * import { defineEvent } from "@a3s-lab/hooks-core";
 *
 * export const deployStart = defineEvent("DeployStart", {
 *   schema: z.object({ target: z.string(), version: z.string() }),
 *   canBlock: true,
 *   modifiable: ["version"],
 *   matcherTarget: "target",
 * });
 *
 * declare module "@a3s-lab/hooks-core" {
 *   interface HookEventMap {
 *     DeployStart: z.output<typeof deployStart.schema>;
 *   }
 * }
 * ```
 */
export function defineEvent<const N extends string, S extends z.core.$ZodObject>(
  name: N,
  init: EventSpecInit<S>,
): EventSpec<N, DefinedEventSchema<N, S>>;
export function defineEvent<D extends EventSpec<string>>(definition: D): D;
export function defineEvent(nameOrDefinition: unknown, init?: unknown): EventSpec<string> {
  if (typeof nameOrDefinition === "string")
    return register(buildSpec(nameOrDefinition, init), false);
  if (
    nameOrDefinition === null ||
    typeof nameOrDefinition !== "object" ||
    !isDefinition(nameOrDefinition)
  ) {
    throw invalid(
      ["definition"],
      "expected a definition made by defineEvent or taken from claudeCodeEvents",
    );
  }
  return register(nameOrDefinition as EventSpec<string>, false);
}

/**
 * A definition {@link defineEvent} accepts, without adding it to the catalogue: how the ready
 * definitions (`claudeCodeEvents`) are made.
 */
export function eventDefinition<const N extends string, S extends z.core.$ZodObject>(
  name: N,
  init: EventSpecInit<S>,
): EventSpec<N, DefinedEventSchema<N, S>> {
  return buildSpec(name, init) as EventSpec<N, DefinedEventSchema<N, S>>;
}

/**
 * {@link eventDefinition} for the ready definitions this package ships (`claudeCodeEvents`): the
 * same ready event, from any copy of this package in the realm, is one definition.
 */
export function readyEventDefinition<const N extends string, S extends z.core.$ZodObject>(
  name: N,
  init: EventSpecInit<S>,
): EventSpec<N, DefinedEventSchema<N, S>> {
  return buildSpec(name, init, undefined, true) as EventSpec<N, DefinedEventSchema<N, S>>;
}

for (const name of Object.keys(eventSchemas) as (keyof typeof eventSchemas)[]) {
  register(
    buildSpec(name, { ...builtinEventRows[name], schema: eventSchemas[name] }, eventSchemas[name]),
    true,
  );
}

/** Names accepted on input for an event that has a canonical name of its own. */
export const eventAliases: Readonly<Record<string, HookEventName>> = Object.freeze({
  ToolError: "PostToolUseFailure",
});
for (const [alias, name] of Object.entries(eventAliases)) {
  for (const spelling of spellingsOf(alias)) lookup.set(spelling, name);
}

function readOnly<T extends object>(target: T): T {
  const refuse = (): never => {
    throw new TypeError("the event catalogue is read-only: add events with defineEvent");
  };
  // Reads first take in what other copies defined, so the view stays live across copies.
  const read =
    <A extends unknown[], R>(trap: (...args: A) => R) =>
    (...args: A): R => {
      sync();
      return trap(...args);
    };
  return new Proxy<T>(target, {
    get: read(Reflect.get),
    has: read(Reflect.has),
    ownKeys: read(Reflect.ownKeys),
    getOwnPropertyDescriptor: read(Reflect.getOwnPropertyDescriptor),
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
    preventExtensions: refuse,
  });
}

/**
 * Every event's spec, keyed by canonical name: the built-in events and those a host added with
 * {@link defineEvent}. A read-only view of the catalogue: it grows as events are defined.
 */
export const eventSpecs: Readonly<Record<HookEventName, EventSpec>> = readOnly(specs) as Readonly<
  Record<HookEventName, EventSpec>
>;

/** Every canonical event name, built-in ones first, then in the order they were defined. A live, read-only view. */
export const hookEventNames: readonly HookEventName[] = readOnly(names) as readonly HookEventName[];

/** The spec of a canonical name, or undefined. The engine's own (proxy-free) read of the catalogue. */
export function specOf(name: string): EventSpec<string> | undefined {
  // One read for a built-in or a known event: this runs on every firing.
  const spec = specs[name];
  if (spec !== undefined) return spec;
  sync();
  return specs[name];
}

/** True when `name` is a built-in event (one this library fires or knows without `defineEvent`). */
export function isBuiltinEvent(name: string): boolean {
  return builtins.has(name);
}

/**
 * The canonical name for any accepted spelling (`PreToolUse`, `preToolUse`, `pre_tool_use`,
 * the alias `ToolError`), or undefined when the name is not in the catalogue.
 */
export function resolveEventName(name: string): HookEventName | undefined {
  const find = () => (lookup.get(name) ?? lookup.get(name.toLowerCase())) as HookEventName;
  const canonical = find();
  if (canonical !== undefined) return canonical;
  sync();
  return find();
}

/** True when `name` is a canonical event name in the catalogue. */
export function isHookEventName(name: unknown): name is HookEventName {
  return typeof name === "string" && specOf(name) !== undefined;
}

/**
 * The snake_case form of a PascalCase or camelCase name: the Rust-agent format's event names
 * (`PreToolUse` → `pre_tool_use`) and Claude Code's stdin fields (`teammateName` → `teammate_name`).
 */
export function snakeCase(name: string): string {
  return snake(name);
}

/** The value a string matcher tests in `event` for target field `target`. */
export function subjectAt(event: HookEvent, target: string): string | undefined {
  const value = (event as unknown as Record<string, unknown>)[target];
  if (typeof value === "string") return value;
  // `model` is an object: a matcher names the model, so it tests `model.name`.
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" ? name : undefined;
}

/** The value a string matcher tests for this event, or undefined when it has none. */
export function matcherSubject(event: HookEvent): string | undefined {
  const target = specOf(event.eventType)?.matcherTarget;
  return target === undefined ? undefined : subjectAt(event, target);
}
