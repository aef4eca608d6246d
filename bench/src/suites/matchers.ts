import { createEvent, type HookEvent, type Matcher } from "@a3s-lab/hooks-core";
import { type CompiledMatcher, compileMatcher } from "@a3s-lab/hooks-core/internal";
import picomatch from "picomatch";
import { BenchError } from "../bench-error.js";
import { goals, makeRow, type Row, side } from "../row.js";
import { overInputs, sampleTasks } from "../sampler.js";
import { summarize } from "../stats.js";
import type { Suite } from "../suite.js";

type ToolEvent = HookEvent & { tool: string; args: Record<string, unknown> };

const tool = (name: string, args: Record<string, unknown> = {}) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: name, args }) as ToolEvent;

// Half of these match each matcher and half do not, so both outcomes are in every sample.
const events: ToolEvent[] = [
  tool("Bash", { command: "ls" }),
  tool("Write", { file_path: "src/engine/fire.ts", content: "x" }),
  tool("mcp__github__create_issue", { title: "t" }),
  tool("WebFetch", { url: "https://example.com" }),
  tool("Edit", { file_path: "README.md" }),
  tool("WebSearch", { query: "q" }),
  tool("mcp__slack__post", {}),
  tool("Write", { file_path: "docs/intro.md" }),
];

const glob = picomatch("src/**/*.ts", { dot: true });

/** The path argument as a careful host reads it: the same keys, in the same order, as core. */
function pathOf(e: ToolEvent): string | undefined {
  const a = e.args;
  if (typeof a.file_path === "string") return a.file_path;
  if (typeof a.path === "string") return a.path;
  if (typeof a.filePath === "string") return a.filePath;
  if (typeof a.notebook_path === "string") return a.notebook_path;
  return undefined;
}

/** Each kind of matcher, compiled by core and written by hand the way a careful host would. */
const cases: {
  id: string;
  what: string;
  matcher: Matcher<"PreToolUse">;
  byHand: (e: ToolEvent) => boolean;
  baseline: string;
}[] = [
  {
    id: "name",
    what: "name (`Bash`)",
    matcher: "Bash",
    byHand: (e) => e.tool === "Bash",
    baseline: "`===`",
  },
  {
    id: "alternatives",
    what: "alternatives (`Bash|Write`)",
    matcher: "Bash|Write",
    byHand: (e) => e.tool === "Bash" || e.tool === "Write",
    baseline: "`===` \\|\\| `===`",
  },
  {
    id: "wildcard",
    what: "wildcard (`mcp__github__*`)",
    matcher: "mcp__github__*",
    byHand: (e) => /^mcp__github__.*$/.test(e.tool),
    baseline: "`RegExp.test`",
  },
  {
    id: "regex",
    what: "regex (`Web(Fetch|Search)`)",
    matcher: "Web(Fetch|Search)",
    byHand: (e) => /Web(Fetch|Search)/.test(e.tool),
    baseline: "`RegExp.test`",
  },
  {
    id: "path-glob",
    what: 'path glob (`{ pathPattern: "src/**/*.ts" }`)',
    matcher: { pathPattern: "src/**/*.ts" },
    byHand: (e) => {
      const path = pathOf(e);
      return path !== undefined && glob(path);
    },
    baseline: "picomatch",
  },
];

/** Compiled matchers against the hand-written test a host would write for the same rule. */
export const matchersSuite: Suite = {
  id: "matchers",
  title: "matcher test",
  async run({ profile }) {
    const rows: Row[] = [];
    for (const c of cases) {
      const compiled = compileMatcher("PreToolUse", c.matcher) as Exclude<CompiledMatcher, null>;
      let matches = 0;
      for (const e of events) {
        if (compiled(e) !== c.byHand(e)) {
          throw new BenchError(
            "TASK_FAILED",
            `matcher ${c.id}: compiled and hand-written disagree on ${e.tool}`,
          );
        }
        if (compiled(e)) matches++;
      }
      if (matches === 0)
        throw new BenchError("TASK_FAILED", `matcher ${c.id}: matches none of the events`);
      const samples = await sampleTasks(
        [
          { name: "compiled", fn: overInputs(compiled, events) },
          { name: "byHand", fn: overInputs(c.byHand, events) },
        ],
        { ...profile.inProcess, batch: 4000 },
      );
      rows.push(
        makeRow({
          id: `matcher.${c.id}`,
          what: `matcher: ${c.what}`,
          ours: side("`compileMatcher()`", summarize(samples.compiled!)),
          baseline: side(c.baseline, summarize(samples.byHand!)),
          goal: goals.ratioAtMost(1.5, "≤ 1.5×"),
          smoke: profile.smoke,
        }),
      );
    }
    return { rows, pending: [] };
  },
};
