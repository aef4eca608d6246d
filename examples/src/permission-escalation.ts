import type { A3sClient, HookHandle } from "@a3s-lab/box";

/** What the hook asks the person at the keyboard. */
export interface ConfirmationDialog {
  title: string;
  message: string;
  /** Milliseconds before the dialog gives up (and the answer is no). */
  timeout: number;
}

/**
 * The A3S Box hooks design, "Permission Escalation Hook": ask for explicit confirmation before the agent
 * runs Bash, Write or Edit. `showConfirmationDialog` is the UI (a terminal prompt, a browser
 * dialog, a chat message); it resolves to true when the person allows the call.
 * The hook's own timeout is longer than the dialog's, so the person gets the whole 30 s.
 */
export function permissionEscalation(
  client: A3sClient,
  showConfirmationDialog: (dialog: ConfirmationDialog) => Promise<boolean>,
): HookHandle {
  return client.registerHook("PermissionRequest", {
    config: { timeoutMs: 35_000, failBehavior: "block" },
    handler: async (event) => {
      const sensitiveTools = ["Bash", "Write", "Edit"];

      if (sensitiveTools.includes(event.tool)) {
        // Show custom confirmation UI
        const confirmed = await showConfirmationDialog({
          title: `Allow ${event.tool}?`,
          message: `The agent wants to execute: ${JSON.stringify(event.args)}`,
          timeout: 30000,
        });

        if (!confirmed) {
          return { action: "block", reason: "User denied permission" };
        }
      }

      return { action: "continue" };
    },
  });
}
