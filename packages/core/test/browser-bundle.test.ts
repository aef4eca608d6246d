import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../../test-support/browser-bundle.ts";

/**
 * Gzipped bytes of all of core in one browser bundle (a cap on the whole library; a page's real
 * cost is the tree-shaken client bundle, budgeted at 40 KB in @a3s-lab/box). Measured at 33.1 KB:
 * zod/mini ~10 KB, picomatch ~9 KB (kept over smaller glob libraries because globs decide what an
 * agent may touch), the engine, its audit stream and merge ~10 KB, the wire schemas, their fast
 * paths and the close codes of the protocol. Raised from 33 KB when the audit sinks' helpers
 * (`onAudit`, `auditTypeFilter`) and the HookEvent fast path moved into core, and from 34 KB
 * (at 35.0 KB) when hooks' answers got their JSON limits (a bounded copy without recursion, so
 * no answer can exhaust the stack) and globs a path for linear-time regular expression engines
 * (the engine itself, RE2, lives in @a3s-lab/hooks-node), and from 36 KB (at 36.6 KB) when the
 * permission step that hosts had each written for themselves moved into core, and from 37 KB
 * (at 38.4 KB) when the catalogue became extensible (`defineEvent`) and Claude Code's nineteen
 * other events came with it as ready definitions, and from 39 KB (at 39.7 KB) when events got
 * answer fields (`watchPaths`, `worktreePath`, …: their schemas and the union merge) and the
 * catalogue became one per realm, shared by the ESM and CJS builds, and from 41 KB (at 42.2 KB)
 * when the engine got its around seam (`engine.use`: middleware around firings and tool calls,
 * whose checks name every bad field), and from 43 KB (at 44.25 KB) when hooks could answer in place of a tool
 * (`respond`, on the wire too), model calls joined the seam (`wrapGenerate`, `runGeneration`) and
 * a `defer` got its routing (who may decide and by when: the strict schema, and the rule that
 * combines several).
 */
const CORE_GZIP_BUDGET = 45 * 1024;

/**
 * Gzipped bytes of a page that imports only `HookEngine`, registers one hook and fires one
 * PreToolUse: what such a page pays for core after tree-shaking. Measured at 34.4 KB, of which
 * picomatch ~8.5 KB (its parser stays whether or not a hook uses `pathPattern`, as any
 * registration may) and zod/mini ~7.7 KB; the rest is the engine, the merge, the event catalogue
 * with the built-in schemas (a hook's changes to an event are checked against them) and the
 * audit stream. Claude Code's ready definitions, the wire, the permission step, `runTool` and the
 * audit formatters are left out, and the case below keeps them out.
 */
const PAGE_GZIP_BUDGET = 35 * 1024;

/** What a page that only fires PreToolUse does not use, so its bundle must not hold. */
const NOT_IN_PAGE = [
  "src/events/claude-code-events.ts",
  "src/wire/",
  "src/audit/audit-trail.ts",
  "src/audit/audit-format.ts",
  "src/engine/permission-step.ts",
  "src/engine/tool-guard.ts",
  "src/engine/generation.ts",
];

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const coreDir = fileURLToPath(new URL("..", import.meta.url));

async function bundle(): Promise<string> {
  return (await bundleForBrowser({ entry }, { format: "iife", globalName: "A3sHooks" })).code;
}

/** A context with what a browser page has and nothing of Node's. */
function pageContext(): vm.Context {
  return vm.createContext({
    setTimeout,
    clearTimeout,
    AbortController,
    AbortSignal,
    EventTarget,
    Event,
    DOMException,
    TextEncoder,
    TextDecoder,
    crypto: globalThis.crypto,
    performance: { now: () => performance.now() },
    console,
    queueMicrotask,
  });
}

/** The page: the engine alone, one hook, one PreToolUse; its answer left on `globalThis`. */
const PAGE = `import { HookEngine } from "@a3s-lab/hooks-core";
const engine = new HookEngine();
engine.register({
  event: "PreToolUse",
  matcher: "Bash",
  handler: (event) => ({ action: "block", reason: "no " + event.args.command }),
});
globalThis.pageAnswer = engine.fire({
  eventType: "PreToolUse",
  eventId: "e1",
  sessionId: "s1",
  timestamp: 0,
  metadata: {},
  tool: "Bash",
  args: { command: "rm" },
});
`;

describe("core in a browser", () => {
  it("bundles for platform browser (a node: import would fail the build) within its size budget", async () => {
    const code = await bundle();
    const gzipped = gzipSync(code).length;
    expect(gzipped).toBeLessThan(CORE_GZIP_BUDGET);
  });

  it("runs in a context with web globals only: no process, Buffer or require", async () => {
    const code = await bundle();
    const context = pageContext();
    vm.runInContext(code, context);
    expect(vm.runInContext("typeof process + typeof Buffer + typeof require", context)).toBe(
      "undefinedundefinedundefined",
    );
    const result = await vm.runInContext(
      `(async () => {
        const { HookEngine, createEvent, block } = A3sHooks;
        const engine = new HookEngine();
        engine.register({ event: "PreToolUse", matcher: { tool: "Bash", pathPattern: "*.sh" }, handler: async () => block("no scripts") });
        const r = await engine.fire(createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { path: "a/run.sh" } }));
        return r.action + ":" + r.reason;
      })()`,
      context,
    );
    expect(result).toBe("block:no scripts");
  });

  it("a page that only fires PreToolUse pulls neither the unused parts nor more than its budget", async () => {
    const page = await bundleForBrowser(
      { stdin: { contents: PAGE, resolveDir: coreDir, loader: "ts", sourcefile: "page.ts" } },
      { format: "iife" },
    );
    const unused = page.used.filter((path) => NOT_IN_PAGE.some((part) => path.includes(part)));
    expect(unused).toEqual([]);
    expect(page.gzipped).toBeLessThan(PAGE_GZIP_BUDGET);
    const context = pageContext();
    vm.runInContext(page.code, context);
    const answer = await vm.runInContext("globalThis.pageAnswer", context);
    expect(`${answer.action}:${answer.reason}`).toBe("block:no rm");
  });
});
