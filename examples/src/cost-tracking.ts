import type { A3sClient, ModelConfig } from "@a3s-lab/box";

export interface CostTrackingOptions {
  /** US dollars per 1,000 tokens, by model name; `default` for the rest. */
  pricePer1kTokens?: Record<string, number>;
  /** Warn once the running total passes this many dollars. Default 10, as in the design. */
  threshold?: number;
  /** Where warnings go. Default `console.warn`. */
  warn?: (message: string) => void;
}

/**
 * The A3S Box hooks design, "Cost Tracking Hook": add up token usage and cost after every generation, and
 * warn when the cost passes a threshold. Returns the running totals and the hook's id.
 */
export function costTracking(client: A3sClient, options: CostTrackingOptions = {}) {
  const prices: Record<string, number> = { default: 0.002, ...options.pricePer1kTokens };
  const threshold = options.threshold ?? 10;
  const warn = options.warn ?? console.warn;
  // The design leaves calculateCost to the reader: a price per 1,000 tokens, by model.
  const calculateCost = (model: ModelConfig, tokens: number) =>
    ((prices[model.name] ?? prices.default!) * tokens) / 1000;

  // Track token usage and costs
  const usage = { totalTokens: 0, totalCost: 0 };

  const hookId = client.registerHook("GenerateEnd", async (event) => {
    const tokens = event.response.usage.total_tokens;
    const cost = calculateCost(event.model, tokens);

    usage.totalTokens += tokens;
    usage.totalCost += cost;

    // Alert if cost exceeds threshold
    if (usage.totalCost > threshold) {
      warn(`Session cost exceeded $${threshold}: $${usage.totalCost.toFixed(2)}`);
    }

    return { action: "continue" };
  });
  return { usage, hookId };
}
