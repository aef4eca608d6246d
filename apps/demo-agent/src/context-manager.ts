import { createEvent, type HookEngine } from "@a3s-lab/hooks-core";
import { type Compaction, compactMessages } from "./compact-messages.js";
import type { ContextBudget } from "./context-budget.js";
import type { Session } from "./session.js";
import { estimateMessageTokens } from "./token-estimate.js";
import type { Notify } from "./tool-call.js";

export interface ContextManagerOptions {
  engine: HookEngine;
  budget: ContextBudget;
  /** Counted against the budget with the messages. */
  systemPrompt: string;
  /** Tells the user a compaction was refused. */
  notify: Notify;
}

/**
 * Keeps a session inside its context budget: ContextWarning once the warning line is
 * crossed, and compaction (PreCompact → compaction → PostCompact) past the second line or
 * when asked for.
 *
 * @example
 * ```ts
 * const context = new ContextManager({ engine, budget: new ContextBudget({ maxTokens: 4000 }), systemPrompt, notify });
 * await context.check(session);          // before each generation
 * await context.compact(session, "manual");
 * ```
 */
export class ContextManager {
  readonly #engine: HookEngine;
  readonly #budget: ContextBudget;
  readonly #systemPrompt: string;
  readonly #notify: Notify;

  constructor(options: ContextManagerOptions) {
    this.#engine = options.engine;
    this.#budget = options.budget;
    this.#systemPrompt = options.systemPrompt;
    this.#notify = options.notify;
  }

  /** Tokens the session's history would cost the next generation. */
  used(session: Session): number {
    return estimateMessageTokens(session.messages, this.#systemPrompt);
  }

  /** Run before each generation. */
  async check(session: Session): Promise<void> {
    const used = this.used(session);
    const state = this.#budget.assess(used);
    if (state.warn && !session.contextWarned) {
      session.contextWarned = true;
      await this.#engine.fire(
        createEvent("ContextWarning", {
          sessionId: session.id,
          trigger: "threshold",
          usedTokens: used,
          maxTokens: state.maxTokens,
          threshold: this.#budget.warnAt,
          metadata: session.eventMetadata(),
        }),
      );
    }
    if (state.compact) await this.compact(session, "auto");
  }

  /**
   * Compact the history. Returns undefined when a PreCompact hook refused or when there is
   * nothing before the latest prompt to compact (then no event fires: nothing happened).
   */
  async compact(
    session: Session,
    trigger: "manual" | "auto",
    instructions?: string,
  ): Promise<Compaction | undefined> {
    const candidate = compactMessages(session.messages, instructions);
    if (!candidate) return undefined;
    const tokensBefore = this.used(session);
    const messagesBefore = session.messages.length;
    const pre = await this.#engine.fire(
      createEvent("PreCompact", {
        sessionId: session.id,
        trigger,
        messageCount: messagesBefore,
        tokenCount: tokensBefore,
        ...(instructions !== undefined ? { customInstructions: instructions } : {}),
        metadata: session.eventMetadata(),
      }),
    );
    if (pre.action === "block") {
      await this.#notify(
        session,
        "status",
        `compaction refused by a hook: ${pre.reason}`,
        "warning",
      );
      return undefined;
    }
    session.messages = candidate.messages;
    session.contextWarned = false;
    session.compactions++;
    await this.#engine.fire(
      createEvent("PostCompact", {
        sessionId: session.id,
        trigger,
        messagesBefore,
        messagesAfter: candidate.messages.length,
        tokensBefore,
        tokensAfter: this.used(session),
        summary: candidate.summary,
        metadata: session.eventMetadata(),
      }),
    );
    return candidate;
  }
}
