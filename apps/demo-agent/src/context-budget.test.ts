import { describe, expect, it } from "vitest";
import { ContextBudget } from "./context-budget.js";

describe("ContextBudget", () => {
  it("warns, then asks for compaction, at its two lines", () => {
    const budget = new ContextBudget({ maxTokens: 1000, warnAt: 0.5, compactAt: 0.8 });
    expect(budget.assess(499)).toMatchObject({ warn: false, compact: false });
    expect(budget.assess(500)).toMatchObject({ warn: true, compact: false, fraction: 0.5 });
    expect(budget.assess(800)).toMatchObject({ warn: true, compact: true });
  });

  it("refuses nonsense settings, naming the field", () => {
    expect(() => new ContextBudget({ maxTokens: 0 })).toThrow(/maxTokens/);
    expect(() => new ContextBudget({ maxTokens: 1.5 })).toThrow(/maxTokens/);
    expect(() => new ContextBudget({ warnAt: 2 })).toThrow(/warnAt/);
    expect(() => new ContextBudget({ compactAt: Number.NaN })).toThrow(/compactAt/);
    expect(() => new ContextBudget({ warnAt: 0.9, compactAt: 0.5 })).toThrow(/warnAt/);
  });
});
