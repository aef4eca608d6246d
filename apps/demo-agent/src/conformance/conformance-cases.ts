import { readFile } from "node:fs/promises";
import path from "node:path";
import type { HookAnswer } from "./hook-scripts.js";

/** Where the suite's data lives: `conformance/claude-code` at the repository root. */
export const SUITE_DIR = path.resolve(import.meta.dirname, "../../../../conformance/claude-code");

/** The two hosts the suite drives. */
export type HostName = "a3s-hooks test" | "demo agent";

/**
 * What Claude Code's hooks reference says follows from a hook's answer:
 * - `outcome`: `continue` (the operation goes on), `block` (the event's block: the tool call or
 *   prompt does not go on; for Stop, Claude keeps working) or `stop` (the whole turn ends);
 * - `model`: the text from the hook the model reads, or null for none;
 * - `user`: texts the user is shown (each must be among what the host shows);
 * - `permission`: the permission decision that follows, when the case is about one;
 * - `toolInput`: the tool input after the hook, when it rewrote it;
 * - `toolOutput`: the tool's output as the model reads it after the hook, when it rewrote it.
 */
export interface Expected {
  outcome: "continue" | "block" | "stop";
  model: string | null;
  user?: string[];
  permission?: "allow" | "ask";
  toolInput?: Record<string, unknown>;
  toolOutput?: string;
}

/** One case: an event, one answer of a hook to it, and what the reference says follows. */
export interface ConformanceCase {
  id: string;
  event: string;
  /** The settings group's `matcher`; `Bash` for tool events when left out (the call is Bash). */
  matcher?: string;
  answer: HookAnswer;
  expect: Expected;
  hosts: HostName[];
  reference: { page: string; section: string; rule: string };
}

/** What a host did with the answer, in the terms of {@link Expected}. */
export interface Observed {
  outcome: Expected["outcome"];
  model: string | null;
  user: string[];
  permission?: string | undefined;
  toolInput?: Record<string, unknown> | undefined;
  toolOutput?: string | undefined;
  /** How each hook that failed failed, when the host says: shown with a divergence, not judged. */
  hookErrors?: string[] | undefined;
}

/** Read the suite's cases. */
export async function loadCases(): Promise<ConformanceCase[]> {
  const doc = JSON.parse(await readFile(path.join(SUITE_DIR, "cases.json"), "utf8")) as {
    cases: ConformanceCase[];
  };
  return doc.cases;
}

/** The stdin JSON Claude Code sends for `event`, from the suite's `inputs/`. */
export async function loadInput(event: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(inputPath(event), "utf8")) as Record<string, unknown>;
}

/** The path of the suite's stdin JSON for `event`. */
export function inputPath(event: string): string {
  return path.join(SUITE_DIR, "inputs", `${event}.json`);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** How the observation differs from what the case expects; empty when it conforms. */
export function divergences(expected: Expected, observed: Observed): string[] {
  const out: string[] = [];
  if (observed.outcome !== expected.outcome) {
    out.push(`outcome ${observed.outcome}, expected ${expected.outcome}`);
  }
  if (observed.model !== expected.model) {
    out.push(
      `the model saw ${JSON.stringify(observed.model)}, expected ${JSON.stringify(expected.model)}`,
    );
  }
  for (const text of expected.user ?? []) {
    if (!observed.user.includes(text)) {
      out.push(
        `the user was not shown ${JSON.stringify(text)} (shown: ${JSON.stringify(observed.user)})`,
      );
    }
  }
  if (expected.permission !== undefined && observed.permission !== expected.permission) {
    out.push(`permission ${observed.permission ?? "none"}, expected ${expected.permission}`);
  }
  if (expected.toolInput !== undefined) {
    const got = observed.toolInput ?? {};
    const picked = Object.fromEntries(Object.keys(expected.toolInput).map((k) => [k, got[k]]));
    if (!same(picked, expected.toolInput)) {
      out.push(`tool input ${JSON.stringify(got)}, expected ${JSON.stringify(expected.toolInput)}`);
    }
  }
  if (expected.toolOutput !== undefined && observed.toolOutput !== expected.toolOutput) {
    out.push(
      `tool output ${JSON.stringify(observed.toolOutput)}, expected ${JSON.stringify(expected.toolOutput)}`,
    );
  }
  return out;
}
