import { AgentError } from "./agent-error.js";

export interface ContextBudgetOptions {
  /** The context window, in tokens. Default 128,000. */
  maxTokens?: number;
  /** Fraction of the window at which ContextWarning fires. Default 0.75. */
  warnAt?: number;
  /** Fraction at which the agent compacts on its own. Default 0.9. */
  compactAt?: number;
}

/** Where a conversation stands against its window. */
export interface BudgetAssessment {
  usedTokens: number;
  maxTokens: number;
  /** usedTokens / maxTokens. */
  fraction: number;
  warn: boolean;
  compact: boolean;
}

/**
 * The context window and its two thresholds: a warning, then automatic compaction.
 *
 * @example
 * ```ts
 * const budget = new ContextBudget({ maxTokens: 1000, warnAt: 0.5, compactAt: 0.8 });
 * budget.assess(600); // { fraction: 0.6, warn: true, compact: false, … }
 * ```
 */
export class ContextBudget {
  readonly maxTokens: number;
  readonly warnAt: number;
  readonly compactAt: number;

  constructor(options: ContextBudgetOptions = {}) {
    this.maxTokens = options.maxTokens ?? 128_000;
    this.warnAt = options.warnAt ?? 0.75;
    this.compactAt = options.compactAt ?? 0.9;
    if (!Number.isInteger(this.maxTokens) || this.maxTokens <= 0) {
      throw new AgentError(
        "INVALID_INPUT",
        `maxTokens: expected a positive integer, got ${this.maxTokens}`,
        {
          path: ["maxTokens"],
        },
      );
    }
    for (const [key, value] of [
      ["warnAt", this.warnAt],
      ["compactAt", this.compactAt],
    ] as const) {
      if (!(value > 0 && value <= 1)) {
        throw new AgentError(
          "INVALID_INPUT",
          `${key}: expected a fraction in (0, 1], got ${value}`,
          {
            path: [key],
          },
        );
      }
    }
    if (this.warnAt > this.compactAt) {
      throw new AgentError("INVALID_INPUT", "warnAt: must not be above compactAt", {
        path: ["warnAt"],
      });
    }
  }

  assess(usedTokens: number): BudgetAssessment {
    const fraction = usedTokens / this.maxTokens;
    return {
      usedTokens,
      maxTokens: this.maxTokens,
      fraction,
      warn: fraction >= this.warnAt,
      compact: fraction >= this.compactAt,
    };
  }
}
