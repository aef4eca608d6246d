import { BenchError } from "../bench-error.js";

/**
 * Time slow operations (a spawn, a network round trip) one call at a time, alternating between
 * the contenders call by call, so both see the same machine at the same moment. Returns
 * nanoseconds per call for each. A first round is run and dropped as warm-up.
 */
export async function alternate(
  contenders: Readonly<Record<string, () => Promise<unknown>>>,
  iterations: number,
  warmup = Math.max(2, Math.ceil(iterations / 20)),
): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  if (names.length === 0) throw new BenchError("TASK_FAILED", "alternate: no contenders");
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = -warmup; i < iterations; i++) {
    for (let k = 0; k < names.length; k++) {
      // Rotate who goes first, so neither side always runs on a cold cache.
      const name = names[(k + (i & 1)) % names.length]!;
      const t = process.hrtime.bigint();
      await contenders[name]!();
      if (i >= 0) out[name]!.push(Number(process.hrtime.bigint() - t));
    }
  }
  return out;
}
