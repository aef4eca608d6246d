import { PermissionStep } from "@a3s-lab/hooks-core";

/** When the proxy asks permission for a tool call, and what it answers when no hook decides. */
export interface PermissionOptions {
  /**
   * Tool names (a matcher string: `mcp__fs__write_file|mcp__fs__edit_file`, `mcp__fs__*`) whose
   * calls always fire PermissionRequest. Calls to other tools fire it only when a PreToolUse
   * hook answers `ask`. Default: none.
   */
  ask?: string;
  /**
   * The answer when PermissionRequest hooks neither allow nor deny. Nobody sits at an MCP
   * server's terminal, so the default is `deny`.
   */
  defaultAnswer?: "allow" | "deny";
}

/**
 * The proxy's permission step: core's, configured from the proxy's options. An empty `ask`
 * (`--ask ""`) names no tool, where a matcher's `""` would match every one.
 */
export function createPermissionStep(options: PermissionOptions = {}): PermissionStep {
  const { ask, ...rest } = options;
  return new PermissionStep({ ...rest, ...(ask !== undefined && ask !== "" ? { ask } : {}) }, [
    "permission",
  ]);
}
