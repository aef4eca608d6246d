import * as z from "zod";

// Its own module, apart from `toHookInput`: only the published JSON Schema needs it, and building
// it at import cost every CLI start that runs a hook or reads settings.

const str = z.string();
const opt = <T extends z.ZodType>(schema: T, description: string) =>
  schema.optional().describe(description);

/** The stdin object as a zod schema, for the published JSON Schema. */
export const hookInputSchema = z
  .looseObject({
    hook_event_name: str.describe("The event, PascalCase: PreToolUse, Stop, …"),
    event: str.describe("The event, snake_case (the Rust-agent format): pre_tool_use, stop, …"),
    session_id: str.describe("The session id."),
    cwd: str.describe("The directory the hook runs in."),
    transcript_path: opt(str, "The transcript file, when the host keeps one."),
    permission_mode: opt(str, "The host's permission mode, when it has one."),
    tool_name: opt(str, "Tool events: the tool's name."),
    tool_input: opt(z.record(z.string(), z.unknown()), "Tool events: the tool's arguments."),
    tool_use_id: opt(str, "Tool events: the id of the tool call."),
    decided_by: opt(str, "Permission events: who decided (hook, user, policy, default), if known."),
    tool_response: opt(
      z.record(z.string(), z.unknown()),
      "PostToolUse: the tool's response, in Claude Code's shape for its built-in tools (Bash: stdout, stderr, interrupted; Write, Edit: filePath, …), with the result's success, output and duration beside it.",
    ),
    tool_result: opt(
      z.record(z.string(), z.unknown()),
      "PostToolUse: the same, the Rust-agent format's name.",
    ),
    error: opt(str, "PostToolUseFailure, SubagentStop: the error message."),
    prompt: opt(str, "UserPromptSubmit, GenerateStart, GenerateEnd: the prompt."),
    source: opt(str, "SessionStart: startup, resume, clear, compact, …"),
    model: opt(str, "SessionStart: the model's id, a string (as Claude Code sends it)."),
    reason: opt(str, "SessionEnd: why it ended; permission events: why."),
    message: opt(str, "Notification: the message."),
    notification_type: opt(str, "Notification: its type."),
    trigger: opt(str, "PreCompact, PostCompact, ContextWarning: manual or auto, …"),
    custom_instructions: opt(str, "PreCompact: the user's compaction instructions."),
    stop_hook_active: opt(z.boolean(), "Stop: true when a Stop hook already asked to continue."),
    agent_id: opt(str, "SubagentStart, SubagentStop: the subagent's id."),
    agent_type: opt(str, "SubagentStart, SubagentStop: the subagent's type."),
    subagent_id: opt(
      str,
      "SubagentStart, SubagentStop: the same as agent_id (the Rust-agent format's name).",
    ),
    subagent_type: opt(
      str,
      "SubagentStart, SubagentStop: the same as agent_type (the Rust-agent format's name).",
    ),
    skill_name: opt(str, "SkillLoad, SkillUnload: the skill's name."),
    eventType: str.describe("The event's canonical name (camelCase form of the event follows)."),
    eventId: str.describe("Unique per firing."),
    sessionId: str.describe("The session id."),
    timestamp: z.number().describe("Milliseconds since the epoch."),
    metadata: z.record(z.string(), z.unknown()).describe("Host-defined metadata."),
    tool: opt(str, "Tool events: the tool's name."),
    args: opt(z.record(z.string(), z.unknown()), "Tool events: the tool's arguments."),
  })
  .describe("What an A3S command hook reads on stdin.");
