import { MAX_RESPOND_OUTPUT_CHARS } from "@a3s-lab/hooks-core";
import * as z from "zod";

const obj = z.record(z.string(), z.unknown());
const d = <T extends z.ZodType>(schema: T, description: string) =>
  schema.optional().describe(description);

/**
 * What a command hook may print on stdout (exit code 0, output starting with `{`), in every
 * dialect core's `normalizeHookOutput` reads. For the published JSON Schema; core does the
 * reading. When fields disagree, the most restrictive wins.
 */
export const hookOutputSchema = z
  .looseObject({
    // A3S
    action: d(
      z.enum(["continue", "block", "retry", "skip", "CONTINUE", "BLOCK", "RETRY", "SKIP"]),
      "A3S: continue, block, retry (the host tries again) or skip (ignore later hooks); upper case also.",
    ),
    modified: d(obj, "A3S: a JSON merge patch of the event's modifiable fields, e.g. {args: {…}}."),
    delay: d(z.number().nonnegative(), "A3S retry: milliseconds to wait."),
    retry_delay_ms: d(z.number().nonnegative(), "A3S retry: the same as delay."),
    retryDelay: d(z.number().nonnegative(), "A3S retry: the same as delay."),
    permission: d(z.enum(["allow", "ask", "deny"]), "A3S: a permission decision."),
    // Claude Code
    continue: d(z.boolean(), "Claude Code, the CLI-agent format: false stops the operation."),
    stopReason: d(z.string(), "Claude Code: why, when continue is false."),
    decision: d(
      z.enum(["approve", "block", "allow", "deny", "ask", "modify", "none"]).nullable(),
      "Claude Code, permission decisions, the CLI-agent format: block or deny stops; approve or allow skips the prompt; none or null says nothing.",
    ),
    reason: d(z.string().nullable(), "Why: shown to the agent when the hook blocks."),
    systemMessage: d(z.string(), "Claude Code: a message for the user."),
    suppressOutput: d(z.boolean(), "Claude Code: hide this hook's output."),
    additionalContext: d(z.string(), "Text added to the model's context."),
    updatedInput: d(obj, "Replacement tool arguments (whole object)."),
    terminalSequence: d(
      z.string(),
      "Claude Code: a terminal escape sequence for the host to emit; accepted, not acted on.",
    ),
    hookSpecificOutput: d(
      z.looseObject({
        hookEventName: d(z.string(), "The event this output answers."),
        permissionDecision: d(
          z.enum(["allow", "deny", "ask", "defer"]),
          "PreToolUse decision; defer ends the turn without running the call unless the host parks it.",
        ),
        permissionDecisionReason: d(z.string(), "Why."),
        a3sRouting: d(
          z.strictObject({
            deciders: d(
              z.array(z.string().min(1).max(256)).max(100),
              "Names allowed to decide; absent or empty means anyone who may decide.",
            ),
            deadline: d(
              z.string().regex(/^[1-9][0-9]{0,5}[smhd]$/),
              'How long the call waits once parked: "90s", "30m", "2h", "7d" (at most 366d).',
            ),
            onDeadline: d(
              z.enum(["allow", "deny"]),
              "What the deadline decides; deny unless allow is given.",
            ),
          }),
          "A3S, with permissionDecision defer: who may decide the deferred call and by when. Other agents ignore it.",
        ),
        a3sRespond: d(
          z.strictObject({
            output: z
              .string()
              .max(MAX_RESPOND_OUTPUT_CHARS)
              .describe("The tool's result as the model reads it (at most 1 MiB of text)."),
          }),
          "A3S, PreToolUse: answer in place of the tool, which does not run; PostToolUse hooks and the model read output. A deny, block or defer in the same answer wins. Other agents ignore it.",
        ),
        updatedInput: d(obj, "Replacement tool arguments (whole object)."),
        additionalContext: d(z.string(), "Text added to the model's context."),
        updatedToolOutput: d(
          z.unknown(),
          "PostToolUse: the tool's new output, for every tool (a string, or the tool's own response shape such as Bash's {stdout, stderr}).",
        ),
        updatedMCPToolOutput: d(
          z.unknown(),
          "PostToolUse: the tool's new output, for MCP tools only (prefer updatedToolOutput).",
        ),
        decision: d(
          z.looseObject({
            behavior: z.enum(["allow", "deny", "ask"]),
            updatedInput: d(obj, "Replacement tool arguments."),
            message: d(z.string(), "Why."),
          }),
          "PermissionRequest decision.",
        ),
      }),
      "Claude Code's per-event output.",
    ),
    // the CLI-agent format
    modified_args: d(
      obj.nullable(),
      "CLI-agent format: arguments to merge into the tool's arguments.",
    ),
    metadata: d(obj, "CLI-agent format: extra information, ignored by the engine."),
    // the Rust-agent format
    continue_execution: d(z.boolean(), "Rust-agent format: false stops the operation."),
    stop_reason: d(z.string().nullable(), "Rust-agent format: why."),
    system_message: d(z.string().nullable(), "Rust-agent format: a message for the user."),
    updated_input: d(obj.nullable(), "Rust-agent format: replacement tool arguments."),
    additional_context: d(z.string().nullable(), "Rust-agent format: text added to the context."),
    suppress_logging: d(z.boolean(), "Rust-agent format: hide this hook's output."),
  })
  .describe("What an A3S command hook may print on stdout (exit code 0).");
