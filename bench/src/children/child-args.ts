import { BenchError } from "../bench-error.js";

/**
 * Read `--name value` integer flags of a child script, rejecting anything else: children are
 * started by the harness only, so an unexpected flag is a bug worth a loud failure.
 */
export function intFlags<K extends string>(
  argv: readonly string[],
  spec: Readonly<Record<K, { min: number; max: number; default: number }>>,
): Record<K, number> {
  const out = Object.fromEntries(
    Object.entries(spec).map(([k, v]) => [k, (v as { default: number }).default]),
  ) as Record<K, number>;
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const key = flag.replace(/^--/, "") as K;
    if (!flag.startsWith("--") || !Object.hasOwn(spec, key)) {
      throw new BenchError(
        "INVALID_OPTION",
        `${flag}: unknown flag (known: ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(", ")})`,
      );
    }
    const raw = argv[i + 1];
    const value = Number(raw);
    const { min, max } = spec[key];
    if (raw === undefined || !/^\d+$/.test(raw) || value < min || value > max) {
      throw new BenchError(
        "INVALID_OPTION",
        `${flag}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw ?? null)}`,
      );
    }
    out[key] = value;
  }
  return out;
}

/** End this child when the harness closes our stdin (or dies), so no child outlives a run. */
export function exitWhenStdinCloses(cleanup: () => void | Promise<void> = () => undefined): void {
  process.stdin.resume();
  process.stdin.on("end", async () => {
    await cleanup();
    process.exit(0);
  });
}
