import {
  HookError,
  type HookEventName,
  resolveEventName,
  type ToolMatcher,
} from "@a3s-lab/hooks-core";
import {
  compileMatcher,
  describeValue,
  formatPath,
  unknownEventMessage,
} from "@a3s-lab/hooks-core/internal";
import type { z } from "zod";
import type { CommandHookDefinition } from "../handlers/command/command-definition.js";
import { CommandTemplate } from "../handlers/command/command-template.js";
import type { HookCommonFields } from "../handlers/hook-common.js";
import { checkHttpHook } from "../handlers/http/http-hook.js";
import {
  describeDefinition,
  hookTypeShapes,
  SETTINGS_HOOK_TYPES,
  type SettingsHookDefinition,
  type SettingsHookDefinitions,
  type SettingsHookType,
} from "../handlers/settings-handler.js";
import { linearRegex } from "../support/linear-regex.js";
import type { SettingsHook, SettingsScope } from "./hook-settings.js";
import { readIfCondition } from "./permission-rule.js";
import {
  type PathKey,
  type ProblemSeverity,
  type SettingsProblem,
  zodProblems,
} from "./settings-problem.js";
import {
  matcherGroupHeadSchema,
  namedHookSchema,
  namedTypedHookSchemas,
  type SettingsOptions,
  settingsCommandSchema,
  settingsOptionsShape,
  settingsTypedHookSchemas,
} from "./settings-schema.js";

/** Where a `hooks` block sits. */
export interface HooksBlockContext {
  /** The file (or source name) it came from. */
  file: string;
  scope: SettingsScope;
  trusted: boolean;
  /** Its path in the document, usually `["hooks"]`. */
  basePath: PathKey[];
}

/** What one `hooks` block holds. */
export interface ParsedHooksBlock {
  hooks: SettingsHook[];
  options: SettingsOptions;
  problems: SettingsProblem[];
}

interface Entry {
  raw: unknown;
  path: PathKey[];
  inGroup: boolean;
  name?: string;
  matcher?: unknown;
  matcherPath?: PathKey[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const GROUP_KEYS = new Set(Object.keys(settingsCommandSchema.shape));
const NAMED_KEYS = new Set(Object.keys(namedHookSchema.shape));

/**
 * Read one `hooks` block in any of the shapes in use: Claude Code / the CLI-agent format
 * (`Event: [{ matcher, hooks: [{ type, command, timeout }] }]`), the Rust-agent format (`event: { name:
 * command | { command, timeout_secs, matcher } }`, a list, or a bare string) and the A3S SDK's
 * engine options. A bad part is reported and skipped; the rest still loads.
 */
export function parseHooksBlock(block: unknown, ctx: HooksBlockContext): ParsedHooksBlock {
  const out: ParsedHooksBlock = { hooks: [], options: {}, problems: [] };
  const sink = new Sink(ctx.file, out.problems);
  const problem = sink.add;
  if (!isObject(block)) {
    problem(
      "error",
      ctx.basePath,
      `expected an object mapping event names to hooks, got ${describeValue(block)}`,
    );
    return out;
  }
  for (const [key, value] of Object.entries(block)) {
    const path = [...ctx.basePath, key];
    if (Object.hasOwn(settingsOptionsShape, key)) {
      const schema = settingsOptionsShape[key as keyof typeof settingsOptionsShape] as z.ZodType;
      const checked = schema.safeParse(value);
      if (checked.success) (out.options as Record<string, unknown>)[key] = checked.data;
      else out.problems.push(...zodProblems(checked.error, value, ctx.file, path));
      continue;
    }
    const event = resolveEventName(key);
    if (!event) {
      problem("warning", path, `${unknownEventMessage(key)}; its hooks are ignored`);
      continue;
    }
    for (const entry of entriesOf(value, path, sink)) {
      const hook = readHook(event, entry, ctx, sink);
      if (hook) out.hooks.push(hook);
    }
  }
  return out;
}

/** Collects problems for one file. */
class Sink {
  constructor(
    readonly file: string,
    readonly problems: SettingsProblem[],
  ) {}
  add = (severity: ProblemSeverity, path: PathKey[], message: string): void => {
    this.problems.push({ file: this.file, path: formatPath(path), message, severity });
  };
  zod(error: z.core.$ZodError, input: unknown, path: PathKey[]): void {
    this.problems.push(...zodProblems(error, input, this.file, path));
  }
}

function entriesOf(value: unknown, path: PathKey[], sink: Sink): Entry[] {
  const problem = sink.add;
  if (typeof value === "string") return [{ raw: value, path, inGroup: false }];
  if (Array.isArray(value)) {
    return value.flatMap((item, i): Entry[] => {
      const at = [...path, i];
      if (typeof item === "string") return [{ raw: item, path: at, inGroup: false }];
      if (isObject(item) && "hooks" in item) return groupEntries(item, at, sink);
      if (isObject(item)) return [{ raw: item, path: at, inGroup: false }];
      problem(
        "error",
        at,
        `expected a command string, a { matcher, hooks } group or a { command } object, got ${describeValue(item)}`,
      );
      return [];
    });
  }
  if (isObject(value)) {
    if ("hooks" in value) {
      problem("warning", path, "expected an array of { matcher, hooks } groups; read as one group");
      return groupEntries(value, path, sink);
    }
    // A hook's own fields, not hook names: `{ "type": "http", "url": … }` must not become two
    // commands named "type" and "url".
    const typed =
      typeof value.type === "string" && SETTINGS_HOOK_TYPES.includes(value.type as never);
    if ("command" in value || "args" in value || typed) {
      problem("warning", path, "expected named hooks or an array; read as one hook");
      return [{ raw: value, path, inGroup: false }];
    }
    return Object.entries(value).map(([name, raw]) => ({
      raw,
      path: [...path, name],
      inGroup: false,
      name,
    }));
  }
  problem(
    "error",
    path,
    `expected an array of hooks, an object of named hooks or a command string, got ${describeValue(value)}`,
  );
  return [];
}

function groupEntries(group: Record<string, unknown>, path: PathKey[], sink: Sink): Entry[] {
  const head = matcherGroupHeadSchema.safeParse(group);
  if (!head.success) {
    sink.zod(head.error, group, path);
    return [];
  }
  for (const key of Object.keys(group)) {
    if (key !== "matcher" && key !== "hooks")
      sink.add("warning", [...path, key], `unknown field "${key}" (ignored)`);
  }
  return head.data.hooks.map((raw, j) => ({
    raw,
    path: [...path, "hooks", j],
    inGroup: true,
    matcher: group.matcher,
    matcherPath: [...path, "matcher"],
  }));
}

function readHook(
  event: HookEventName,
  entry: Entry,
  ctx: HooksBlockContext,
  sink: Sink,
): SettingsHook | undefined {
  const given = typeof entry.raw === "string" ? { command: entry.raw } : entry.raw;
  if (!isObject(given)) {
    sink.add(
      "error",
      entry.path,
      `expected a command string or a { command } object, got ${describeValue(entry.raw)}`,
    );
    return undefined;
  }
  const condition = readIfCondition(event, given.if, formatPath([...entry.path, "if"]), (s, m) =>
    sink.add(s, [...entry.path, "if"], m),
  );
  // Read above: a bad rule is a warning and the hook is kept without it, never dropped.
  const { if: _if, ...raw } = given;
  const read =
    raw.type !== undefined && raw.type !== "command"
      ? readTypedHook(event, raw, entry, sink)
      : readCommandHook(event, raw, entry, ctx, sink);
  return read && finishHook(event, entry, ctx, read, condition);
}

/** A `command` hook (the default type): its fields, its shell, its matcher and its template. */
function readCommandHook(
  event: HookEventName,
  raw: Record<string, unknown>,
  entry: Entry,
  ctx: HooksBlockContext,
  sink: Sink,
): ReadDefinition | undefined {
  const data = checkCommandFields(raw, entry, ctx, sink);
  if (data === undefined) return undefined;
  const definition = toDefinition(data);
  if (!commonFieldsAgree(definition, entry, sink)) return undefined;
  if (definition.shell === "powershell") {
    sink.add(
      "error",
      [...entry.path, "shell"],
      '"powershell" cannot run here: {{variables}} are quoted for POSIX shells only; use "bash" (this hook does not load)',
    );
    return undefined;
  }
  const matcher = readMatcher(event, entry, data.matcher, sink);
  if (matcher === false || !templateCompiles(definition, entry, sink)) return undefined;
  return { type: "command", definition, matcher };
}

/** A command hook's fields checked against its schema; unknown ones and a doubled timeout warned of. */
function checkCommandFields(
  raw: Record<string, unknown>,
  entry: Entry,
  ctx: HooksBlockContext,
  sink: Sink,
): (Record<string, unknown> & { matcher?: unknown }) | undefined {
  const schema = entry.inGroup ? settingsCommandSchema : namedHookSchema;
  const checked = schema.safeParse(raw);
  if (!checked.success) {
    // A bare string's problems belong to the string itself, not to a `command` field.
    if (typeof entry.raw !== "string") sink.zod(checked.error, raw, entry.path);
    else {
      for (const p of zodProblems(checked.error, raw, ctx.file, []))
        sink.problems.push({ ...p, path: formatPath(entry.path) });
    }
    return undefined;
  }
  const known = entry.inGroup ? GROUP_KEYS : NAMED_KEYS;
  warnUnknownFields(raw, (key) => known.has(key), entry, sink, "");
  const data = checked.data as Record<string, unknown> & { matcher?: unknown };
  if (data.timeout !== undefined && data.timeout_secs !== undefined) {
    sink.add(
      "warning",
      [...entry.path, "timeout_secs"],
      "both timeout and timeout_secs; timeout wins",
    );
  }
  return data;
}

/** Fields a hook does not have, each a warning (a hook's `matcher` is told where it belongs). */
function warnUnknownFields(
  raw: Record<string, unknown>,
  known: (key: string) => boolean,
  entry: Entry,
  sink: Sink,
  ofType: string,
): void {
  for (const key of Object.keys(raw)) {
    if (known(key) || key === "if") continue;
    sink.add(
      "warning",
      [...entry.path, key],
      key === "matcher"
        ? "a matcher belongs on the group, not on one of its hooks (ignored)"
        : `unknown field "${key}"${ofType} (ignored)`,
    );
  }
}

/** The schema has checked the fields; compiling the templates catches bad {{variables}} now. */
function templateCompiles(definition: CommandHookDefinition, entry: Entry, sink: Sink): boolean {
  try {
    new CommandTemplate(definition);
    return true;
  } catch (error) {
    const e = HookError.from(error);
    const field = definition.command !== undefined ? "command" : "args";
    const message = e.message.replace(/^(?:command|args\[\d+\]): /, "");
    sink.add("error", typeof entry.raw === "string" ? entry.path : [...entry.path, field], message);
    return false;
  }
}

interface ReadDefinition {
  type: SettingsHookType;
  definition: SettingsHookDefinition;
  matcher: string | ToolMatcher | undefined;
}

function readMatcher(
  event: HookEventName,
  entry: Entry,
  own: unknown,
  sink: Sink,
): string | ToolMatcher | undefined | false {
  const matcherPath = entry.inGroup ? entry.matcherPath! : [...entry.path, "matcher"];
  return checkMatcher(event, entry.inGroup ? entry.matcher : own, matcherPath, sink.add);
}

/** `onFailure` and `failBehavior` are two spellings of one field: both may be set only alike. */
function commonFieldsAgree(definition: HookCommonFields, entry: Entry, sink: Sink): boolean {
  const { onFailure, failBehavior } = definition;
  if (onFailure === undefined || failBehavior === undefined || onFailure === failBehavior)
    return true;
  sink.add(
    "error",
    [...entry.path, "onFailure"],
    `onFailure is "${onFailure}" but failBehavior is "${failBehavior}"; set one of them (this hook does not load)`,
  );
  return false;
}

/** An `http`, `prompt`, `agent` or `mcp_tool` hook: its type's fields and the common ones. */
function readTypedHook(
  event: HookEventName,
  raw: Record<string, unknown>,
  entry: Entry,
  sink: Sink,
): ReadDefinition | undefined {
  const typePath = [...entry.path, "type"];
  const type = raw.type;
  if (typeof type !== "string" || !Object.hasOwn(hookTypeShapes, type)) {
    sink.add(
      "error",
      typePath,
      `expected one of ${SETTINGS_HOOK_TYPES.map((t) => `"${t}"`).join(", ")}, got ${describeValue(type)} (this hook does not load)`,
    );
    return undefined;
  }
  const t = type as keyof typeof hookTypeShapes;
  const schema = (entry.inGroup ? settingsTypedHookSchemas : namedTypedHookSchemas)[t];
  const checked = schema.safeParse(raw);
  if (!checked.success) {
    sink.zod(checked.error, raw, entry.path);
    return undefined;
  }
  warnUnknownFields(
    raw,
    (key) => Object.hasOwn(schema.shape, key),
    entry,
    sink,
    ` for a ${t} hook`,
  );
  const { matcher: own, ...definition } = checked.data as Record<string, unknown> & {
    matcher?: unknown;
  };
  const typed = definition as unknown as SettingsHookDefinitions[typeof t];
  if (!commonFieldsAgree(typed, entry, sink)) return undefined;
  if (typed.type === "http") {
    let fatal = false;
    for (const p of checkHttpHook(typed)) {
      sink.add(p.severity, [...entry.path, ...p.field.split(".")], p.message);
      fatal ||= p.severity === "error";
    }
    if (fatal) return undefined;
  }
  const matcher = readMatcher(event, entry, own, sink);
  if (matcher === false) return undefined;
  return { type: t, definition: typed, matcher };
}

function finishHook(
  event: HookEventName,
  entry: Entry,
  ctx: HooksBlockContext,
  read: ReadDefinition,
  condition: string | undefined,
): SettingsHook {
  const { type, definition, matcher } = read;
  const path = formatPath(entry.path);
  const display = describeDefinition(definition);
  const hook: SettingsHook = {
    id: `${ctx.file}#${path}`,
    event,
    type,
    definition,
    name: (
      entry.name ??
      definition.name ??
      (display.length > 80 ? `${display.slice(0, 79)}…` : display)
    ).slice(0, 256),
    source: ctx.file,
    path,
    scope: ctx.scope,
    trusted: ctx.trusted,
  };
  if (matcher !== undefined) hook.matcher = matcher;
  if (condition !== undefined) hook.if = condition;
  return hook;
}

function toDefinition(data: Record<string, unknown>): CommandHookDefinition {
  const d: Record<string, unknown> = {};
  if (data.command !== undefined && data.args !== undefined) {
    // Claude Code's exec form: `command` is the program, `args` its arguments.
    d.args = [data.command, ...(data.args as string[])];
  } else if (data.command !== undefined) d.command = data.command;
  else if (data.args !== undefined) d.args = data.args;
  const timeout = data.timeout ?? data.timeout_secs;
  if (timeout !== undefined) d.timeout = timeout;
  const cwd = data.cwd ?? data.working_directory;
  if (cwd !== undefined) d.cwd = cwd;
  for (const key of [
    "env",
    "failBehavior",
    "onFailure",
    "async",
    "asyncRewake",
    "once",
    "statusMessage",
    "shell",
    "priority",
    "name",
  ] as const) {
    if (data[key] !== undefined) d[key] = data[key];
  }
  return d as unknown as CommandHookDefinition;
}

/** The matcher to use, undefined for "everything", or false when it is invalid. */
function checkMatcher(
  event: HookEventName,
  matcher: unknown,
  path: PathKey[],
  problem: Sink["add"],
): string | ToolMatcher | undefined | false {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
  try {
    // Compiled as the hook will be (see applyHookSettings): a pattern the linear-time engine
    // cannot run is an error of this file, not a surprise at registration.
    compileMatcher(event, matcher as string | ToolMatcher, [formatPath(path)], {
      regex: linearRegex,
    });
    return matcher as string | ToolMatcher;
  } catch (error) {
    const e = HookError.from(error);
    if (e.code === "INVALID_CONFIG") {
      // Claude Code ignores a matcher on events that have nothing to match; so do we, aloud.
      problem("warning", path, `${event} has nothing to match against; the matcher is ignored`);
      return undefined;
    }
    problem("error", path, e.message.replace(/^[^:]*: /, ""));
    return false;
  }
}
