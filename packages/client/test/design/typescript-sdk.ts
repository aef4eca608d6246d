// biome-ignore-all lint: the A3S Box hooks design's TypeScript SDK section, kept as written.
/**
 * The A3S Box hooks design, "SDK Interface → TypeScript SDK", as written. Only two things are added, both
 * marked: the design uses `PreToolUseEvent` and `handler` without defining them.
 * typescript-sdk.test.ts runs this module against a real hook server.
 */
import type { PreToolUseEvent } from "@a3s-lab/box"; // added: the design uses the type without importing it

// ── the A3S Box hooks design, verbatim from here ──────────────────────────────────────────────
import { A3sClient, HookEvent, HookResponse } from "@a3s-lab/box";

const client = new A3sClient();

// Register a hook with async handler
client.registerHook("PreToolUse", async (event: PreToolUseEvent): Promise<HookResponse> => {
  // Block dangerous bash commands
  if (event.tool === "Bash") {
    const command = event.args.command as string;
    if (command.includes("rm -rf /") || command.includes(":(){ :|:& };:")) {
      return {
        action: "block",
        reason: "Dangerous command blocked by security policy",
      };
    }
  }
  return { action: "continue" };
});

// Register hook with matcher pattern
client.registerHook("PreToolUse", {
  matcher: { tool: "Write", pathPattern: "*.env" },
  handler: async (event) => {
    // Validate .env file changes
    const content = event.args.content as string;
    if (content.includes("API_KEY=")) {
      return { action: "block", reason: "Cannot write API keys to .env files" };
    }
    return { action: "continue" };
  },
});

// Modify tool inputs
client.registerHook("PreToolUse", {
  matcher: { tool: "Bash" },
  handler: async (event) => {
    // Add timeout to all bash commands
    const command = event.args.command as string;
    return {
      action: "continue",
      modified: {
        args: { ...event.args, timeout: 30000 },
      },
    };
  },
});

// Post-execution hooks
client.registerHook("PostToolUse", {
  matcher: { tool: "Write", pathPattern: "*.rs" },
  handler: async (event) => {
    if (event.result.success) {
      // Run rustfmt after writing Rust files
      await client.executeTool(event.sessionId, "Bash", {
        command: `rustfmt ${event.args.file_path}`,
      });
    }
    return { action: "continue" };
  },
});

// Multiple hooks for same event (run in parallel)
client.registerHook("GenerateEnd", async (event) => {
  // Log to external system
  await fetch("https://metrics.example.com/log", {
    method: "POST",
    body: JSON.stringify({ session: event.sessionId, usage: event.response.usage }),
  });
  return { action: "continue" };
});

// added: the design unregisters a `handler` it never defines
const handler = async (_event: HookEvent): Promise<HookResponse> => ({ action: "continue" });

// Unregister hooks
const hookId = client.registerHook("PreToolUse", handler);
client.unregisterHook(hookId);

// List registered hooks
const hooks = client.listHooks();

// ── end of the design text ───────────────────────────────────────────────────────────

export { client, hookId, hooks }; // added: so the test can look
