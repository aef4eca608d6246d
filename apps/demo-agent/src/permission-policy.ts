import { PermissionStep, type PermissionStepOptions, type ToolArgs } from "@a3s-lab/hooks-core";
import type { Tool } from "./tools/tool.js";

/**
 * The demo's permission step: core's {@link PermissionStep} with the demo's policy, under which
 * read-only tools run unasked and every other tool (and any tool it does not know) fires
 * PermissionRequest. `options` supply the answer when hooks leave a question open (a y/n prompt,
 * or a fixed `"allow"` / `"deny"`, the default), and may replace the policy with their own `ask`.
 *
 * @example
 * ```ts
 * const permission = demoPermissionStep(builtinTools, { defaultAnswer: "allow" });
 * const { args } = await permission.authorize(engine, { sessionId, tool: "Bash", args: { command: "ls" } });
 * ```
 */
export function demoPermissionStep(
  tools: Iterable<Tool>,
  options: PermissionStepOptions = {},
): PermissionStep {
  const readOnly = new Set<string>();
  for (const tool of tools) if (tool.readOnly) readOnly.add(tool.name);
  // `??`, not a spread: an `ask: undefined` must not switch the policy off.
  return new PermissionStep({ ...options, ask: options.ask ?? ((tool) => !readOnly.has(tool)) });
}

/** PermissionRequest's reason: what the call acts on, as a person at the prompt reads it. */
export function permissionReason(tool: string, args: ToolArgs): string {
  const subject = args.command ?? args.file_path ?? args.path ?? args.pattern;
  return typeof subject === "string"
    ? `${tool} wants to act on ${JSON.stringify(subject.slice(0, 200))}`
    : `${tool} needs permission`;
}
