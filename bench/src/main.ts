/**
 * `pnpm bench`: run every suite, write results.md and results.json. Started by run.mjs, which
 * bundles this file first (see README.md for why).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchError } from "./bench-error.js";
import { renderChart } from "./chart.js";
import { describeMachine } from "./machine.js";
import { parseOptions, USAGE } from "./options.js";
import { CHART_FILE, type RunReport, renderJson, renderMarkdown } from "./report.js";
import type { PendingRow, Row } from "./row.js";
import { profiles } from "./suite.js";
import { suites } from "./suites/index.js";

const benchRoot = resolve(
  process.env.A3S_BENCH_ROOT ?? fileURLToPath(new URL("..", import.meta.url)),
);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const ids = suites.map((s) => s.id);
  const options = parseOptions(process.argv.slice(2), ids);
  if (options.help) {
    process.stdout.write(`${USAGE.replace("%SUITES%", ids.join(", "))}\n`);
    return 0;
  }
  const profile = options.smoke ? profiles.smoke : profiles.full;
  const startedAt = new Date();
  const machine = describeMachine();
  log(
    `bench: ${options.smoke ? "smoke" : "full"} run on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}`,
  );
  const rows: Row[] = [];
  const pending: PendingRow[] = [];
  for (const suite of suites) {
    if (options.only && !options.only.includes(suite.id)) continue;
    const t = performance.now();
    log(`bench: ${suite.title} …`);
    const result = await suite.run({ profile, log });
    rows.push(...result.rows);
    pending.push(...result.pending);
    log(
      `bench: ${suite.title}: ${result.rows.length} rows, ${result.pending.length} pending, ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    // Leave the next suite a clean heap, so one suite's garbage is not another's GC pause.
    (globalThis as { gc?: () => void }).gc?.();
  }
  const report: RunReport = {
    version: 1,
    mode: options.smoke ? "smoke" : "full",
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    machine,
    rows,
    pending,
  };
  const outDir = resolve(options.outDir ?? (options.smoke ? join(benchRoot, ".tmp") : benchRoot));
  await mkdir(outDir, { recursive: true });
  const markdown = renderMarkdown(report);
  await writeFile(join(outDir, "results.md"), markdown);
  await writeFile(join(outDir, "results.json"), renderJson(report));
  await writeFile(join(outDir, CHART_FILE), renderChart(report.rows));
  process.stdout.write(markdown);
  log(`bench: wrote ${join(outDir, "results.md")}, results.json and ${CHART_FILE}`);
  return options.strict && rows.some((r) => r.verdict === "missed") ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const e =
      error instanceof BenchError
        ? error
        : new BenchError("TASK_FAILED", String((error as Error)?.stack ?? error), { cause: error });
    log(`bench: ${e.code}: ${e.message}`);
    process.exitCode = e.code === "INVALID_OPTION" ? 2 : 1;
  },
);
