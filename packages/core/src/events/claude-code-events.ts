import * as z from "zod/mini";
import { watchPathsSchema } from "./answer-fields.js";
import type { ClaudeCodeEventName } from "./claude-code-names.js";
import { jsonObjectSchema } from "./event-schemas.js";
import { readyEventDefinition } from "./event-spec.js";

const text = () => z.string();
const optionalText = () => z.optional(z.string());

const modelSwitch = {
  /** The model the session ran before the switch. */
  fromModel: text(),
  /** The model it runs after. */
  toModel: text(),
  /** What was asked for (an alias such as `opus`, a full id), or null for the default. */
  requestedModel: z.optional(z.nullable(z.string())),
  /** How the switch was asked for: `command`, `picker`, `sdk`, `auto`, `resume`, … */
  source: optionalText(),
  /** Prompt tokens the next request sends again. */
  contextTokens: z.optional(z.number().check(z.nonnegative())),
  /** Whether the current model's prompt cache is likely still warm. */
  promptCacheWarm: z.optional(z.boolean()),
  cacheTtl: optionalText(),
  estimatedCacheWriteUsd: z.optional(z.number()),
  pricing: optionalText(),
};

const task = {
  taskId: text(),
  taskSubject: text(),
  taskDescription: optionalText(),
  teammateName: optionalText(),
  teamName: optionalText(),
};

const elicitationMode = z.optional(z.enum(["form", "url"]));
const elicitationAction = z.enum(["accept", "decline", "cancel"]);

/** Paths a hook asks the host to watch; every hook's paths add up. */
const watched = {
  /** Absolute paths the host should watch for FileChanged (Claude Code's `watchPaths`). */
  watchPaths: z.optional(watchPathsSchema),
};
const watchAnswers = { watchPaths: { merge: "union" } } as const;

/**
 * Claude Code's hook events that this library does not fire itself, as ready definitions a host
 * opts in to: `defineEvent(claudeCodeEvents.FileChanged)` for one, or every one with
 * `Object.values(claudeCodeEvents).forEach((d) => defineEvent(d))`. Fields are camelCase like
 * the built-in events; a command hook receives them in Claude Code's snake_case. Type the ones
 * you define by extending {@link HookEventMap} with {@link ClaudeCodeEventMap} (or a `Pick` of it).
 *
 * Can block: PostToolBatch, UserPromptExpansion, Elicitation, ElicitationResult, TeammateIdle,
 * TaskCreated, TaskCompleted, ConfigChange, WorktreeCreate, PreModelSwitch. Hooks answer
 * Claude Code's event-specific fields (`modify({ field })`, or `hookSpecificOutput.field` from a
 * command hook): `watchPaths` of CwdChanged and FileChanged (every hook's paths add up; the
 * built-in SessionStart has it too), WorktreeCreate's `worktreePath`, MessageDisplay's
 * `displayContent`, and the `action` and `content` of Elicitation and ElicitationResult.
 *
 * @example
 * ```ts
 * import { type ClaudeCodeEventMap, claudeCodeEvents, defineEvent } from "@a3s-lab/hooks-core";
 *
 * defineEvent(claudeCodeEvents.TeammateIdle);
 *
 * declare module "@a3s-lab/hooks-core" {
 *   interface HookEventMap extends Pick<ClaudeCodeEventMap, "TeammateIdle"> {}
 * }
 * ```
 */
export const claudeCodeEvents = Object.freeze({
  /** After every tool call of one batch has resolved, before the next model request. */
  PostToolBatch: readyEventDefinition("PostToolBatch", {
    schema: z.object({
      toolCalls: z.array(
        z.object({
          toolName: text(),
          toolInput: z.unknown(),
          toolUseId: text(),
          toolResponse: z.optional(z.unknown()),
        }),
      ),
    }),
    canBlock: true,
  }),
  /** A slash command or MCP prompt expands into a prompt. Matched by command name. */
  UserPromptExpansion: readyEventDefinition("UserPromptExpansion", {
    schema: z.object({
      /** `slash_command` or `mcp_prompt`. */
      expansionType: text(),
      commandName: text(),
      commandArgs: text(),
      commandSource: optionalText(),
      prompt: text(),
    }),
    canBlock: true,
    matcherTarget: "commandName",
  }),
  /** A turn ended because of an API error. Matched by the error type (`rate_limit`, …). */
  StopFailure: readyEventDefinition("StopFailure", {
    schema: z.object({
      /** `rate_limit`, `overloaded`, `authentication_failed`, `server_error`, `unknown`, … */
      error: text(),
      errorDetails: optionalText(),
      lastAssistantMessage: optionalText(),
    }),
    matcherTarget: "error",
  }),
  /** An MCP server asks the user for input. Matched by server name; a block declines. */
  Elicitation: readyEventDefinition("Elicitation", {
    schema: z.object({
      mcpServerName: text(),
      message: text(),
      mode: elicitationMode,
      url: optionalText(),
      elicitationId: optionalText(),
      requestedSchema: z.optional(jsonObjectSchema),
      /** A hook's answer on the user's behalf: `accept` (with `content`), `decline` or `cancel`. */
      action: z.optional(elicitationAction),
      /** The form's values, with `accept`. */
      content: z.optional(jsonObjectSchema),
    }),
    canBlock: true,
    matcherTarget: "mcpServerName",
    answers: { action: {}, content: {} },
  }),
  /** The user answered an MCP elicitation, before the answer goes back to the server. */
  ElicitationResult: readyEventDefinition("ElicitationResult", {
    schema: z.object({
      mcpServerName: text(),
      elicitationId: optionalText(),
      mode: elicitationMode,
      action: elicitationAction,
      content: z.optional(jsonObjectSchema),
    }),
    canBlock: true,
    matcherTarget: "mcpServerName",
    answers: { action: {}, content: {} },
  }),
  /** An agent-team teammate is about to go idle; a block keeps it working. */
  TeammateIdle: readyEventDefinition("TeammateIdle", {
    schema: z.object({ teammateName: text(), teamName: optionalText() }),
    canBlock: true,
  }),
  /** A task is being created; a block stops it. */
  TaskCreated: readyEventDefinition("TaskCreated", { schema: z.object(task), canBlock: true }),
  /** A task is being marked completed; a block keeps it open. */
  TaskCompleted: readyEventDefinition("TaskCompleted", { schema: z.object(task), canBlock: true }),
  /** Repository setup or maintenance runs. Matched by trigger (`init`, `maintenance`). */
  Setup: readyEventDefinition("Setup", {
    schema: z.object({ trigger: text() }),
    matcherTarget: "trigger",
  }),
  /** An instructions file (CLAUDE.md, a rule) was loaded into context. Matched by load reason. */
  InstructionsLoaded: readyEventDefinition("InstructionsLoaded", {
    schema: z.object({
      filePath: text(),
      /** `User`, `Project`, `Local`, `Managed`. */
      memoryType: text(),
      /** `session_start`, `nested_traversal`, `path_glob_match`, `include`, `compact`. */
      loadReason: text(),
      globs: z.optional(z.array(z.string())),
      triggerFilePath: optionalText(),
      parentFilePath: optionalText(),
    }),
    matcherTarget: "loadReason",
  }),
  /** The working directory changed. Hooks may answer `watchPaths`. */
  CwdChanged: readyEventDefinition("CwdChanged", {
    schema: z.object({ oldCwd: text(), newCwd: text(), ...watched }),
    answers: watchAnswers,
  }),
  /**
   * A watched file changed. Matched by the file's base name (`.envrc|.env`), which the host
   * passes as `fileName` next to the full `filePath`. Hooks may answer more `watchPaths`.
   */
  FileChanged: readyEventDefinition("FileChanged", {
    schema: z.object({
      filePath: text(),
      fileName: text(),
      event: z.enum(["change", "add", "unlink"]),
      ...watched,
    }),
    matcherTarget: "fileName",
    answers: watchAnswers,
  }),
  /** A settings file or skill changed during the session. Matched by source; a block refuses the change. */
  ConfigChange: readyEventDefinition("ConfigChange", {
    schema: z.object({
      /** `user_settings`, `project_settings`, `local_settings`, `policy_settings`, `skills`. */
      source: text(),
      filePath: optionalText(),
    }),
    canBlock: true,
    matcherTarget: "source",
  }),
  /**
   * A worktree is about to be created. A block fails the creation; a hook that creates the
   * worktree itself answers its path: `modify({ worktreePath })`, Claude Code's
   * `hookSpecificOutput.worktreePath`, or (a command hook) the path alone on stdout, its last
   * non-empty line.
   */
  WorktreeCreate: readyEventDefinition("WorktreeCreate", {
    schema: z.object({ name: text(), worktreePath: optionalText() }),
    canBlock: true,
    answers: { worktreePath: { stdout: true } },
  }),
  /** A worktree is being removed. */
  WorktreeRemove: readyEventDefinition("WorktreeRemove", {
    schema: z.object({ worktreePath: text() }),
  }),
  /** The model is about to change. Matched by the new model; a block cancels the switch. */
  PreModelSwitch: readyEventDefinition("PreModelSwitch", {
    schema: z.object(modelSwitch),
    canBlock: true,
    matcherTarget: "toModel",
  }),
  /** The model changed. Matched by the new model. */
  PostModelSwitch: readyEventDefinition("PostModelSwitch", {
    schema: z.object(modelSwitch),
    matcherTarget: "toModel",
  }),
  /**
   * Lines of an assistant message are about to be shown. A hook may show other text in their
   * place (`displayContent`); what the transcript keeps and the model sees stays `delta`.
   */
  MessageDisplay: readyEventDefinition("MessageDisplay", {
    schema: z.object({
      turnId: text(),
      messageId: text(),
      /** Zero-based index of this piece within the message. */
      index: z.number().check(z.int(), z.nonnegative()),
      /** True on the message's last piece. */
      final: z.boolean(),
      /** The newly completed lines, as streamed. */
      delta: text(),
      /** The text to show in place of `delta`, as hooks answered it. */
      displayContent: optionalText(),
    }),
    answers: { displayContent: {} },
  }),
  /** A directory was added to the session's workspace. Matched by source. */
  DirectoryAdded: readyEventDefinition("DirectoryAdded", {
    schema: z.object({
      directory: text(),
      /** `slash_command`, `register_repo_root`, … */
      source: text(),
    }),
    matcherTarget: "source",
  }),
  // `satisfies` refuses a name missing from, or extra to, the list error messages read.
} satisfies Record<ClaudeCodeEventName, unknown>);

/** The event types of {@link claudeCodeEvents}, to extend `HookEventMap` with. */
export type ClaudeCodeEventMap = {
  -readonly [K in keyof typeof claudeCodeEvents]: z.output<(typeof claudeCodeEvents)[K]["schema"]>;
};
