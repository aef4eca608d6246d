import type { ToolContext as HookToolContext, Message, TokenUsage } from "@a3s-lab/hooks-core";

/** How many recent tool names PreToolUse's context carries. */
const RECENT_TOOLS = 10;

export interface SessionInit {
  id: string;
  workdir: string;
  metadata?: Record<string, unknown>;
  /** Set for a subagent's session: the id its events carry in `metadata.subagentId`. */
  subagentId?: string;
}

/**
 * One conversation: its message history, token usage, and what the context budget has
 * already reported. Sessions are plain state; the {@link Agent} drives them.
 */
export class Session {
  readonly id: string;
  readonly workdir: string;
  /** Where its Bash commands run: `workdir`, or a folder inside it a `cd` moved to. */
  cwd: string;
  readonly subagentId: string | undefined;
  metadata: Record<string, unknown>;
  /** The conversation as the model will see it next (after compactions). */
  messages: Message[] = [];
  /** Everything the model has used in this session, summed. */
  readonly usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  readonly recentTools: string[] = [];
  /** ContextWarning fires once per crossing; a compaction re-arms it. */
  contextWarned = false;
  compactions = 0;
  /** True while a response is being produced; one at a time per session. */
  busy = false;
  ended = false;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.workdir = init.workdir;
    this.cwd = init.workdir;
    this.metadata = init.metadata ?? {};
    this.subagentId = init.subagentId;
  }

  addUsage(usage: TokenUsage): void {
    this.usage.prompt_tokens += usage.prompt_tokens;
    this.usage.completion_tokens += usage.completion_tokens;
    this.usage.total_tokens += usage.total_tokens;
  }

  noteTool(name: string): void {
    this.recentTools.push(name);
    if (this.recentTools.length > RECENT_TOOLS) this.recentTools.shift();
  }

  /** The `context` a PreToolUse event carries. */
  toolContext(): HookToolContext {
    return {
      workingDirectory: this.workdir,
      recentTools: [...this.recentTools],
      tokenUsage: { ...this.usage },
    };
  }

  /** Metadata every event of this session carries. */
  eventMetadata(): Record<string, unknown> {
    return this.subagentId === undefined ? {} : { subagentId: this.subagentId };
  }
}
