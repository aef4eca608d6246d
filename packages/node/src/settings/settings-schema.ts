import { hookEventNames, MAX_DELAY_MS } from "@a3s-lab/hooks-core";
import * as z from "zod";
import { commandHookShape, noNul, secondsSchema } from "../handlers/command/command-definition.js";
import { hookCommonShape } from "../handlers/hook-common.js";
import { hookTypeShapes } from "../handlers/settings-handler.js";

/** The A3S SDK's object matcher. */
export const toolMatcherSchema = z
  .object({
    tool: z.string({ error: "expected a string" }).max(4096).optional(),
    pathPattern: z.string({ error: "expected a string" }).max(4096).optional(),
    commandPattern: z.string({ error: "expected a string" }).max(4096).optional(),
  })
  .describe(
    "The A3S SDK's matcher: a tool name, a glob over its path argument, a regex over its command.",
  );

/** A string matcher (`Bash`, `Write|Edit`, `mcp__*`, `builtin:*`, a regex) or an object matcher. */
export const matcherSchema = z
  .union([
    z.string().max(4096, { error: "expected a matcher of at most 4096 characters" }),
    toolMatcherSchema,
  ])
  .describe(
    'What the hook applies to: "*" or "" for everything, "Bash", "Write|Edit", "mcp__*", …',
  );

/**
 * Claude Code's two forms: `command` alone is a shell command; `command` with `args` is the
 * program and its arguments, run with no shell (the A3S SDK writes that as `args` alone).
 */
const settingsCommandForm = (value: { command?: unknown; args?: unknown }) =>
  value.command !== undefined || value.args !== undefined;
const settingsCommandFormMessage =
  'expected "command" (a shell command, or with "args" the program to run) or "args"';

const settingsHookShape = {
  ...commandHookShape,
  timeout_secs: secondsSchema.optional().describe("Rust-agent format: the same as timeout."),
  working_directory: noNul("a path").optional().describe("CLI-agent format: the same as cwd."),
};

/** One hook inside a `{ matcher, hooks: [...] }` group (Claude Code, the CLI-agent format, Rust-agent frontmatter). */
export const settingsCommandSchema = z
  .object(settingsHookShape)
  .refine(settingsCommandForm, { error: settingsCommandFormMessage })
  .describe("A command hook.");

/** One hook of another type (`http`, `prompt`, `agent`, `mcp_tool`) inside a group: its own fields plus the common ones. */
export const settingsTypedHookSchemas = Object.fromEntries(
  Object.entries(hookTypeShapes).map(([type, shape]) => [
    type,
    z.object({ ...hookCommonShape, ...shape }).describe(`A ${type} hook.`),
  ]),
) as unknown as { [T in keyof typeof hookTypeShapes]: z.ZodObject };

/** The same, with its own matcher (the Rust-agent format's named hooks). */
export const namedTypedHookSchemas = Object.fromEntries(
  Object.entries(hookTypeShapes).map(([type, shape]) => [
    type,
    z
      .object({ ...hookCommonShape, ...shape, matcher: matcherSchema.optional() })
      .describe(`A ${type} hook with its own matcher.`),
  ]),
) as unknown as { [T in keyof typeof hookTypeShapes]: z.ZodObject };

/** Any hook inside a group: a command (no `type`, or `"command"`) or one of the other types. */
export const settingsHookSchema = z
  .union([settingsCommandSchema, ...Object.values(settingsTypedHookSchemas)])
  .describe("A hook: command, http, prompt, agent or mcp_tool.");

/** The Rust-agent format's hook object: a command with its own matcher. */
export const namedHookSchema = z
  .object({ ...settingsHookShape, matcher: matcherSchema.optional() })
  .refine(settingsCommandForm, { error: settingsCommandFormMessage })
  .describe("Rust-agent format: a command hook with its own matcher.");

/** The group's own fields; its hooks are checked one by one so one bad hook spares the rest. */
export const matcherGroupHeadSchema = z.object({
  matcher: matcherSchema.optional(),
  hooks: z.array(z.unknown(), { error: "expected an array of hooks" }),
});

/** Claude Code's and the CLI-agent format's `{ matcher, hooks: [...] }`. */
export const matcherGroupSchema = z
  .object({ matcher: matcherSchema.optional(), hooks: z.array(settingsHookSchema) })
  .describe("Claude Code / the CLI-agent format: hooks that share a matcher.");

/** Everything an event key may hold, in any of the three shapes. */
export const eventHooksSchema = z
  .union([
    z.array(
      z.union([
        z.string().describe("Rust-agent format: a bare shell command."),
        matcherGroupSchema,
        namedHookSchema,
      ]),
    ),
    z
      .record(z.string(), z.union([z.string(), namedHookSchema]))
      .describe("Rust-agent format: named hooks."),
    z.string().describe("Rust-agent format: one bare shell command."),
  ])
  .describe("The hooks of one event.");

/** The A3S SDK's engine options, which sit next to the event keys in `hooks`. */
export const settingsOptionsShape = {
  enabled: z
    .boolean({ error: "expected true or false" })
    .optional()
    .describe("false turns every hook off."),
  maxHooksPerEvent: z
    .number({ error: "expected a positive whole number" })
    .int({ error: "expected a positive whole number" })
    .positive({ error: "expected a positive whole number" })
    .optional()
    .describe("Default 10."),
  maxTotalHooks: z
    .number({ error: "expected a positive whole number" })
    .int({ error: "expected a positive whole number" })
    .positive({ error: "expected a positive whole number" })
    .optional()
    .describe("Default 50."),
  defaultTimeout: z
    .number({ error: "expected a positive number of milliseconds" })
    .positive({ error: "expected a positive number of milliseconds" })
    .max(MAX_DELAY_MS, { error: `expected at most ${MAX_DELAY_MS} milliseconds` })
    .optional()
    .describe("Milliseconds, for hooks that set no timeout (command hooks default to 60000)."),
  failBehavior: z
    .enum(["continue", "block"], { error: 'expected "continue" or "block"' })
    .optional()
    .describe("What a failed hook contributes, for hooks that set none."),
  auditLevel: z
    .enum(["off", "info", "verbose"], { error: 'expected "off", "info" or "verbose"' })
    .optional()
    .describe("How much the engine reports."),
};

/** The merged scalar settings. */
export interface SettingsOptions {
  /** `false` turns every hook off. */
  enabled?: boolean;
  /** The most hooks one event may have (the engine's default is 10). */
  maxHooksPerEvent?: number;
  /** The most hooks in all (the engine's default is 50). */
  maxTotalHooks?: number;
  /** Milliseconds. */
  defaultTimeout?: number;
  /** What a hook that fails or times out contributes when its definition does not say. */
  failBehavior?: "continue" | "block";
  /** How much the engine reports: `off`, `info` or `verbose`. */
  auditLevel?: "off" | "info" | "verbose";
  /** Claude Code's switch: true turns every hook off. */
  disableAllHooks?: boolean;
}

export const SETTINGS_OPTION_KEYS = Object.keys(settingsOptionsShape) as (keyof SettingsOptions)[];

/** The `hooks` object: event keys (any spelling) and the A3S SDK's options. */
export const hooksBlockSchema = z
  .object({
    ...settingsOptionsShape,
    ...Object.fromEntries(hookEventNames.map((name) => [name, eventHooksSchema.optional()])),
  })
  .catchall(eventHooksSchema)
  .describe("Event names (PreToolUse, preToolUse, …) mapped to hooks, and engine options.");

/** A whole settings file. Keys other than these (Claude Code's `permissions`, `env`, …) are left alone. */
export const settingsFileSchema = z
  .looseObject({
    $schema: z.string().optional(),
    disableAllHooks: z
      .boolean({ error: "expected true or false" })
      .optional()
      .describe(
        "Claude Code: true turns every hook off; outside a managed settings file, managed hooks stay on.",
      ),
    allowManagedHooksOnly: z
      .boolean({ error: "expected true or false" })
      .optional()
      .describe("Managed settings files only: only hooks from managed files run."),
    allowedHttpHookUrls: z
      .array(z.string())
      .max(1024)
      .optional()
      .describe(
        "URL patterns (* matches any text) http hooks may call; a pattern naming its host without * also allows that host's private addresses. A managed file's list cannot be widened.",
      ),
    httpHookAllowedEnvVars: z
      .array(z.string())
      .max(1024)
      .optional()
      .describe(
        "Variables http hooks may use in headers; a managed file's list cannot be widened.",
      ),
    commandHookAllowedSecrets: z
      .array(z.string())
      .max(1024)
      .optional()
      .describe(
        "Host secrets (A3S_TOKEN, the model keys) command hooks still inherit; none by default. Ignored in a project's files; a managed file's list cannot be widened.",
      ),
    hooks: hooksBlockSchema.optional(),
  })
  .describe("A3S hooks settings (compatible with Claude Code's settings.json).");
