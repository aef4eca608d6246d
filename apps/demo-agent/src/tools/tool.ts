import type { Stats } from "node:fs";
import type { ToolOutput } from "@a3s-lab/hooks-core";
import { validate } from "@a3s-lab/hooks-core/internal";
import { WorkspacePathError, WorkspaceRoot } from "@a3s-lab/hooks-node/workspace";
import type * as z from "zod";
import { AgentError } from "../agent-error.js";

/** What a tool gets besides its input. */
export interface ToolContext {
  /** The session's working directory (the root every file tool is confined to). */
  readonly workdir: string;
  /** Where Bash commands run: the working directory, or a folder inside it a `cd` moved to. */
  readonly cwd?: string | undefined;
  /** Moves the session's shell (a Bash call that is just `cd DIR`); resolves with the new folder. */
  readonly changeCwd?: ((dir: string) => Promise<string>) | undefined;
  /** Tells the agent a file tool changed a file (it fires FileChanged for watched names). */
  readonly fileChanged?: ((file: string, event: "add" | "change") => Promise<void>) | undefined;
  /**
   * Runs a file tool's write of `file` (absolute; `write` opens, writes and resolves with the
   * file's stats right after), so the session's watch of hooks' `watchPaths` does not report
   * the change again: the tool's `fileChanged` already fires FileChanged for it.
   */
  readonly ownWrite?: ((file: string, write: () => Promise<Stats>) => Promise<void>) | undefined;
  /** Aborted when the turn is cancelled. */
  readonly signal?: AbortSignal | undefined;
  /** Runs a subagent; present only where subagents are allowed (not inside a subagent). */
  readonly runSubagent?: ((request: SubagentRequest) => Promise<string>) | undefined;
  /** Loads a skill by name; present only in a session that has skills. */
  readonly loadSkill?: ((name: string) => Promise<string>) | undefined;
  /**
   * What the session's hooks wrote to `CLAUDE_ENV_FILE`, run before each Bash command; it
   * rejects when the file is refused (a symlink, a FIFO, too large, not the session's).
   */
  readonly sessionEnv?: (() => Promise<string>) | undefined;
}

/** What the Task tool asks the agent for. */
export interface SubagentRequest {
  description: string;
  prompt: string;
  subagentType: string;
}

/**
 * A tool the model can call. The input schema is a zod schema: it validates the model's
 * arguments, is handed to the hook engine (so a hook's rewritten arguments are checked too),
 * and becomes the JSON Schema a real model sees.
 */
export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: S;
  /** Read-only tools run without a permission request. */
  readonly readOnly: boolean;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Build a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return Object.freeze(tool);
}

/**
 * Validate a tool's arguments; throws `INVALID_INPUT` naming the field and the value
 * (`args.file_path: expected string, got 42 (number)`).
 */
export function parseToolInput<S extends z.ZodType>(tool: Tool<S>, args: unknown): z.output<S> {
  const checked = validate(tool.inputSchema as never, args, "INVALID_EVENT", ["args"]);
  if (!checked.success) {
    throw new AgentError("INVALID_INPUT", `${tool.name}: ${checked.error.message}`, {
      path: checked.error.path,
      cause: checked.error,
    });
  }
  return checked.data as z.output<S>;
}

/** Directory entries (files and folders) one Glob or Grep walk visits at most. */
export const WALK_ENTRY_LIMIT = 20_000;

/**
 * Open the working directory, run `fn` with it, and close it: how a file tool opens paths (see
 * `WorkspaceRoot` in `@a3s-lab/hooks-node/workspace`). A refused path rejects with the
 * AgentError of the same code (`OUTSIDE_WORKSPACE`, `NOT_FOUND`, …), naming the field.
 */
export function useWorkspace<T>(
  workdir: string,
  fn: (root: WorkspaceRoot) => Promise<T>,
): Promise<T> {
  return WorkspaceRoot.use(workdir, fn).catch((error: unknown) => {
    throw error instanceof WorkspacePathError ? AgentError.from(error) : error;
  });
}

/** The input schemas of tools, keyed by name: what `HookEngineOptions.toolSchemas` wants. */
export function toolSchemasOf(tools: readonly Tool[]): Record<string, Tool["inputSchema"]> {
  return Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
}
