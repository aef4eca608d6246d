import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConformanceCase,
  divergences,
  type HostName,
  loadCases,
  loadInput,
  SUITE_DIR,
} from "./conformance-cases.js";
import { throughCli, throughDemoAgent } from "./conformance-hosts.js";
import { hookCommand, SCRIPT_VARIANTS, type ScriptVariant } from "./hook-scripts.js";

// The Claude Code conformance suite (conformance/claude-code): every case, through both hosts,
// with its hook written in bash, Python and Node, each run by path and inline. One line per
// run, a total, and a failure listing every divergence.

let root: string;
let cases: ConformanceCase[];
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "cc-conformance-")));
  cases = await loadCases();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const HOSTS: Record<HostName, typeof throughCli> = {
  "a3s-hooks test": throughCli,
  "demo agent": throughDemoAgent,
};

/**
 * The script variants a case runs in: two of the six, turning with the case's index so every
 * variant runs across the suite; all six with A3S_CONFORMANCE_FULL=1.
 */
function variantsOf(index: number): ScriptVariant[] {
  if (process.env.A3S_CONFORMANCE_FULL === "1") return [...SCRIPT_VARIANTS];
  const n = SCRIPT_VARIANTS.length;
  return [SCRIPT_VARIANTS[(2 * index) % n]!, SCRIPT_VARIANTS[(2 * index + 1) % n]!];
}

/** Runs at once: hooks are real processes, and most of a run is waiting for them. */
const CONCURRENCY = 4;

async function runHost(host: HostName): Promise<{ lines: string[]; failed: string[] }> {
  const only = process.env.A3S_CONFORMANCE_CASE;
  const runs = cases
    .filter((k) => k.hosts.includes(host) && (only === undefined || k.id.includes(only)))
    .flatMap((c, i) => variantsOf(i).map((variant) => ({ c, variant })));
  // Every script is written before any hook starts. A script written while another run's hook
  // was being spawned could be exec'd while that child, between its fork and its exec, still
  // held the script's write descriptor: "Text file busy", a failed hook, now and then on a
  // loaded machine. A user's hook scripts are not written by the host as it runs them.
  const commands = await Promise.all(
    runs.map(async ({ c, variant }, i) => {
      const dir = path.join(root, `${host === "demo agent" ? "demo" : "cli"}-${i}`);
      await mkdir(dir, { recursive: true });
      return { dir, command: await hookCommand(c.answer, variant, dir, "hook") };
    }),
  );
  const lines: string[] = new Array(runs.length);
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < runs.length; i = next++) {
      const { c, variant } = runs[i]!;
      const { dir, command } = commands[i]!;
      const label = `${c.id} [${host}, ${variant.language} ${variant.mode}]`;
      let problems: string[];
      try {
        const observed = await HOSTS[host](c, command, dir);
        problems = divergences(c.expect, observed);
        // Why a hook failed, when it did: a divergence is easier to read with it.
        if (problems.length > 0 && observed.hookErrors?.length) {
          problems.push(`hook failed: ${observed.hookErrors.join("; ")}`);
        }
      } catch (error) {
        problems = [`the run failed: ${(error as Error).message}`];
      }
      lines[i] = `${problems.length === 0 ? "ok  " : "FAIL"} ${label}`;
      if (problems.length > 0) failed.push(`${label}: ${problems.join("; ")}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  lines.push(`${host}: ${runs.length - failed.length} of ${runs.length} runs conform`);
  return { lines, failed };
}

describe("Claude Code conformance suite", () => {
  it("has well-formed data: an input for every event, a cited reference for every case", async () => {
    const ids = new Set<string>();
    for (const c of cases) {
      expect(ids.has(c.id), c.id).toBe(false);
      ids.add(c.id);
      expect(c.reference.section.length, c.id).toBeGreaterThan(0);
      expect(c.reference.rule.length, c.id).toBeGreaterThan(0);
      expect(c.hosts.length, c.id).toBeGreaterThan(0);
      const input = await loadInput(c.event);
      expect(input.hook_event_name, c.id).toBe(c.event);
    }
  });

  // The reference's input schemas: every field of every event reaches the hook as Claude Code
  // sends it (cwd aside: a host reports the directory it runs the hook in).
  it("gives every event's hook its stdin as Claude Code sends it (through a3s-hooks test)", async () => {
    const events = [...new Set(cases.map((c) => c.event))];
    const extra = (await readdir(path.join(SUITE_DIR, "inputs"))).map((f) =>
      f.replace(/\.json$/, ""),
    );
    const problems: string[] = [];
    for (const event of [...new Set([...events, ...extra])]) {
      const dir = path.join(root, `input-${event}`);
      await mkdir(dir, { recursive: true });
      const captured = path.join(dir, "stdin.json");
      const c = { event } as ConformanceCase;
      await throughCli(c, `cat > '${captured}'`, dir);
      const stdin = JSON.parse(await readFile(captured, "utf8")) as Record<string, unknown>;
      for (const [key, value] of Object.entries(await loadInput(event))) {
        if (key === "cwd") continue;
        if (JSON.stringify(stdin[key]) !== JSON.stringify(value)) {
          problems.push(
            `${event}.${key}: got ${JSON.stringify(stdin[key])}, sent ${JSON.stringify(value)}`,
          );
        }
      }
      process.stdout.write(`${problems.length === 0 ? "ok  " : "    "} input ${event}\n`);
    }
    expect(problems).toEqual([]);
  });

  it.each(["a3s-hooks test", "demo agent"] as const)(
    "every case conforms through %s",
    async (host) => {
      const { lines, failed } = await runHost(host);
      process.stdout.write(`${lines.join("\n")}\n`);
      expect(failed).toEqual([]);
    },
    240_000,
  );
});
