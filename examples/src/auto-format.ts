import type { A3sClient, HookHandle } from "@a3s-lab/box";

/** The formatter the auto-format hook runs for each file extension. */
export const formatters: Record<string, string> = {
  rs: "rustfmt",
  py: "black",
  ts: "prettier --write",
  js: "prettier --write",
  go: "gofmt -w",
};

/**
 * The A3S Box hooks design, "Auto-Format Hook": after the agent writes a file, run its formatter in the same
 * session through `executeTool` (so the formatter's Bash call goes through the agent's hooks
 * too). Returns the hook's id.
 */
export function autoFormat(client: A3sClient): HookHandle {
  return client.registerHook("PostToolUse", {
    matcher: { tool: "Write" },
    handler: async (event) => {
      if (!event.result.success) return { action: "continue" };

      const filePath = event.args.file_path as string;
      // The design indexes with `ext` directly; `pop()` can be undefined, so check it first.
      const ext = filePath.split(".").pop() ?? "";

      const formatter = formatters[ext];
      if (formatter) {
        await client.executeTool(event.sessionId, "Bash", {
          // The design wraps the path in double quotes, where `$(…)` in a file name would still
          // run; single quotes (each `'` closed, escaped and reopened) run nothing.
          command: `${formatter} '${filePath.replaceAll("'", `'\\''`)}'`,
          timeout: 10000,
        });
      }

      return { action: "continue" };
    },
  });
}
