import { allow, block, type HookEngine, type HookHandle, modify } from "@a3s-lab/hooks-core";

/** The commands the security-policy example blocks, plus the classic fork bomb. */
export const DANGEROUS_COMMANDS: readonly RegExp[] = [
  /rm\s+-[a-z]*r[a-z]*f[a-z]*\s+(\/|~)(\s|$)/i,
  /rm\s+-[a-z]*f[a-z]*r[a-z]*\s+(\/|~)(\s|$)/i,
  /mkfs\./,
  /dd\s+if=.*of=\/dev/,
  />\s*\/dev\/sd/,
  /:\(\)\s*\{\s*:\|:&\s*\};:/,
];

/** Commands that reach the network; the demo's PermissionRequest hook denies them. */
export const NETWORK_COMMANDS = /(^|[\s;&|(])(curl|wget|ssh|scp|nc|ncat|telnet)(\s|$)/;

/** The longest Bash timeout the demo lets a command ask for, in milliseconds. */
export const DEMO_BASH_TIMEOUT = 10_000;

const SECRET = /\b(sk-[A-Za-z0-9_-]{8,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b/g;

/**
 * The demo's in-process TypeScript hooks, the first of the three hook forms:
 * - `no-dangerous-commands` (PreToolUse, Bash): blocks {@link DANGEROUS_COMMANDS};
 * - `bash-timeout` (PreToolUse, Bash): rewrites the arguments so every command has a timeout;
 * - `redact-secrets` (UserPromptSubmit): rewrites prompts so API keys never reach the model;
 * - `permission-rules` (PermissionRequest): allows file edits, denies network commands, and
 *   leaves everything else to the person or the default answer.
 *
 * Returns the handles; unregister them to remove the hooks.
 *
 * @example
 * ```ts
 * const handles = registerDemoHooks(agent.engine);
 * ```
 */
export function registerDemoHooks(engine: HookEngine): HookHandle[] {
  return [
    engine.register({
      event: "PreToolUse",
      matcher: "Bash",
      name: "no-dangerous-commands",
      priority: -10,
      handler: (event) => {
        const command = String(event.args.command ?? "");
        const hit = DANGEROUS_COMMANDS.find((p) => p.test(command));
        return hit ? block(`dangerous command matching ${hit}`) : undefined;
      },
    }),
    engine.register({
      event: "PreToolUse",
      matcher: "Bash",
      name: "bash-timeout",
      handler: (event) => {
        const timeout = event.args.timeout;
        if (typeof timeout === "number" && timeout <= DEMO_BASH_TIMEOUT) return undefined;
        return modify({ args: { timeout: DEMO_BASH_TIMEOUT } });
      },
    }),
    engine.register({
      event: "UserPromptSubmit",
      name: "redact-secrets",
      handler: (event) => {
        const redacted = event.prompt.replace(SECRET, (key) => `${key.slice(0, 3)}…[redacted]`);
        return redacted === event.prompt ? undefined : modify({ prompt: redacted });
      },
    }),
    engine.register({
      event: "PermissionRequest",
      name: "permission-rules",
      handler: (event) => {
        if (event.tool === "Write" || event.tool === "Edit") return allow();
        if (event.tool === "Bash" && NETWORK_COMMANDS.test(String(event.args.command ?? ""))) {
          return block("network access is not allowed in the demo");
        }
        return undefined;
      },
    }),
  ];
}

/**
 * The scenario's Stop hook: a Markdown file written or edited in a response must be read back
 * before the agent stops. The reason carries the `read` lines, which is also what the scripted
 * model acts on when it continues.
 */
export function registerCheckBeforeStop(engine: HookEngine): HookHandle[] {
  const unchecked = new Map<string, Set<string>>();
  const files = (sessionId: string) => {
    let set = unchecked.get(sessionId);
    if (!set) unchecked.set(sessionId, (set = new Set()));
    return set;
  };
  return [
    engine.register({
      event: "PostToolUse",
      matcher: { tool: "Write|Edit|Read", pathPattern: "**/*.md" },
      name: "track-markdown",
      handler: (event) => {
        const file = String(event.args.file_path);
        if (event.tool === "Read") files(event.sessionId).delete(file);
        else files(event.sessionId).add(file);
      },
    }),
    engine.register({
      event: "Stop",
      name: "check-before-stop",
      handler: (event) => {
        const pending = [...files(event.sessionId)];
        if (pending.length === 0) return undefined;
        unchecked.delete(event.sessionId);
        return block(
          ["Read back what you wrote before you stop:", ...pending.map((f) => `read ${f}`)].join(
            "\n",
          ),
        );
      },
    }),
  ];
}
