import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The dual-package hazard: an app that imports core as ESM while a dependency requires it as
 * CommonJS loads two copies of it (and the CommonJS build has one more, `internal.cjs`). The
 * event catalogue must be one per realm all the same, or an event the host defined is unknown
 * to the copy that runs the hooks. These tests load the built files (`pnpm build`, or `npx tsup`
 * in packages/core) in a fresh Node process, as an app would.
 */
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const src = fileURLToPath(new URL("../src/", import.meta.url));

function newest(dir: string): number {
  return Math.max(...readdirSync(dir).map((f) => statSync(dir + f).mtimeMs));
}

/** Run `body` as an ES module with `esm`, `cjs` and `cjsInternal` in scope; returns its JSON. */
function inNode(body: string, before = ""): unknown {
  const script = `
    import { createRequire } from "node:module";
    ${before}
    const require = createRequire(${JSON.stringify(dist)});
    const esm = await import(${JSON.stringify(`${dist}index.js`)});
    const cjs = require("./index.cjs");
    const cjsInternal = require("./internal.cjs");
    const out = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

describe("one event catalogue per realm, whichever build defined the event", () => {
  it("runs against a build of the current source", () => {
    expect(
      newest(dist),
      "packages/core/dist is older than src: run `npx tsup` in packages/core",
    ).toBeGreaterThanOrEqual(newest(src));
  });

  it("an event defined through the ESM build is known to both CommonJS files, and back", () => {
    const seen = inNode(`
      const z = await import("zod");
      esm.defineEvent("DeployStart", {
        schema: z.object({ target: z.string() }),
        canBlock: true,
        matcherTarget: "target",
      });
      cjs.defineEvent("DeployEnd", { schema: z.object({ target: z.string() }) });
      const event = cjs.createEvent("DeployStart", { sessionId: "s", target: "prod" });
      return {
        esmKnowsEnd: esm.isHookEventName("DeployEnd"),
        cjsKnowsStart: cjs.isHookEventName("DeployStart"),
        cjsResolves: cjs.resolveEventName("deploy_start"),
        cjsCanBlock: cjs.eventSpecs.DeployStart?.canBlock,
        internalSubject: cjsInternal.matcherSubject(event),
        sameNames: esm.hookEventNames.join() === cjs.hookEventNames.join(),
        builtinOnce: cjs.hookEventNames.filter((n) => n === "PreToolUse").length,
        builtin: cjsInternal.isBuiltinEvent("PreToolUse") && !cjsInternal.isBuiltinEvent("DeployStart"),
      };
    `);
    expect(seen).toEqual({
      esmKnowsEnd: true,
      cjsKnowsStart: true,
      cjsResolves: "DeployStart",
      cjsCanBlock: true,
      internalSubject: "prod",
      sameNames: true,
      builtinOnce: 1,
      builtin: true,
    });
  });

  it("a definition made by one build is accepted by the other, and a different one refused", () => {
    const seen = inNode(`
      const z = await import("zod");
      const teammate = esm.claudeCodeEvents.TeammateIdle;
      cjs.defineEvent(teammate);
      esm.defineEvent(teammate);
      let clash;
      try {
        esm.defineEvent("TeammateIdle", { schema: z.object({ other: z.string() }) });
      } catch (e) {
        clash = e.code;
      }
      return { known: esm.isHookEventName("TeammateIdle"), clash };
    `);
    expect(seen).toEqual({ known: true, clash: "INVALID_CONFIG" });
  });

  it("each build's own ready definition of an event is the same definition", () => {
    const seen = inNode(`
      esm.defineEvent(esm.claudeCodeEvents.FileChanged);
      cjs.defineEvent(cjs.claudeCodeEvents.FileChanged);
      cjsInternal.specOf("FileChanged");
      return {
        esm: esm.isHookEventName("FileChanged"),
        cjs: cjs.isHookEventName("FileChanged"),
        blocks: cjs.eventSpecs.FileChanged.canBlock,
      };
    `);
    expect(seen).toEqual({ esm: true, cjs: true, blocks: false });
  });

  /** Fires PreToolUse with one blocking hook through every copy; also tries an ill-typed event. */
  const everyCopyBlocks = `
    // An unknown name makes each copy read what the shared store holds before it fires.
    esm.isHookEventName("NotDefined");
    cjs.isHookEventName("NotDefined");
    cjsInternal.specOf("NotDefined");
    const fire = async (core) => {
      const engine = new core.HookEngine();
      engine.register({ event: "PreToolUse", handler: () => core.block("no") });
      const event = core.createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: {} });
      return (await engine.fire(event)).action;
    };
    let unchecked = true;
    try {
      cjs.createEvent("PreToolUse", { sessionId: "s", tool: 1, args: {} });
    } catch {
      unchecked = false;
    }
    return {
      esm: await fire(esm),
      cjs: await fire(cjs),
      internal: cjsInternal.specOf("PreToolUse").canBlock,
      unchecked,
    };
  `;
  const forgedPreToolUse = `
    const { z } = await import("zod");
    const forged = Object.freeze({
      name: "PreToolUse", schema: z.any(), canBlock: false, modifiable: ["args"],
      matcherTarget: "tool", toolEvent: true, answers: {},
    });
  `;

  it.each([
    [
      "the first layout's record",
      `{
        version: 1,
        specs: Object.assign(Object.create(null), { PreToolUse: forged }),
        names: ["PreToolUse"],
        builtins: new Set(["PreToolUse"]),
        lookup: new Map([["PreToolUse", "PreToolUse"], ["pretooluse", "PreToolUse"]]),
        built: new WeakMap(),
      }`,
    ],
    [
      "a store of the current layout",
      `Object.freeze({
        version: 2,
        at: (i) => (i === 0 ? forged : undefined),
        add: (spec) => spec,
        fields: () => undefined,
      })`,
    ],
  ])("a catalogue planted before the package loads (%s) decides no built-in event", (_, plant) => {
    const seen = inNode(
      everyCopyBlocks,
      `${forgedPreToolUse}
      globalThis[Symbol.for("@a3s-lab/hooks-core/event-catalogue")] = ${plant};`,
    );
    expect(seen).toEqual({ esm: "block", cjs: "block", internal: true, unchecked: false });
  });

  it("a shared entry named like a built-in (another copy's, or planted) is not used for it", () => {
    const seen = inNode(`
      ${forgedPreToolUse}
      // Whatever the shared store lets any script do, it is done here.
      const store = globalThis[Symbol.for("@a3s-lab/hooks-core/event-catalogue")];
      try { store.add(forged); } catch {}
      try { store.specs.PreToolUse = forged; } catch {}
      ${everyCopyBlocks}
    `);
    expect(seen).toEqual({ esm: "block", cjs: "block", internal: true, unchecked: false });
  });

  it("a catalogue of another layout is left alone: each copy then keeps its own", () => {
    const seen = inNode(
      `
      const z = await import("zod");
      esm.defineEvent("DeployStart", { schema: z.object({ target: z.string() }) });
      const foreign = globalThis[Symbol.for("@a3s-lab/hooks-core/event-catalogue")];
      return {
        esm: esm.isHookEventName("DeployStart"),
        esmBuiltins: esm.isHookEventName("PreToolUse"),
        foreign: JSON.stringify(foreign),
      };
    `,
      `globalThis[Symbol.for("@a3s-lab/hooks-core/event-catalogue")] = { version: 999 };`,
    );
    expect(seen).toEqual({ esm: true, esmBuiltins: true, foreign: '{"version":999}' });
  });
});
