import type { HookEvent, HookResponse } from "@a3s-lab/hooks-core";
import type { HookInput } from "./hook-input.js";

/** What a settings-file hook of any type (`command`, `http`, `prompt`, `agent`, `mcp_tool`) runs with. */
export interface HandlerRunContext {
  /** The event as fired. */
  event: HookEvent;
  /** Claude Code's hook input for it: what a command hook reads on stdin, an http hook receives as its body. */
  input: HookInput;
  /** Aborted when the hook times out or the firing is cancelled. */
  signal: AbortSignal;
}

/**
 * One settings-file hook, ready to run: it answers with a response (or nothing, for "continue"),
 * or throws a `HookError` saying why it failed; the hook's fail behaviour then applies. Every
 * type reads its answer through the same output normaliser as a command hook's stdout.
 */
export type SettingsHandler = (ctx: HandlerRunContext) => Promise<HookResponse | undefined>;
