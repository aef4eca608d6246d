import type { A3sClient, HookHandle } from "@a3s-lab/box";

/**
 * The A3S Box hooks design, "Security Policy Hook": block execution of dangerous commands.
 * Returns the hook's id.
 */
export function securityPolicy(client: A3sClient): HookHandle {
  return client.registerHook("PreToolUse", {
    matcher: { tool: "Bash" },
    handler: async (event) => {
      const command = event.args.command as string;

      const dangerous = [/rm\s+-rf\s+\//, /mkfs\./, /dd\s+if=.*of=\/dev/, />\s*\/dev\/sd/];

      for (const pattern of dangerous) {
        if (pattern.test(command)) {
          return {
            action: "block",
            reason: `Blocked dangerous command matching ${pattern}`,
          };
        }
      }

      return { action: "continue" };
    },
  });
}
