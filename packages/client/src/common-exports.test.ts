import { readFileSync } from "node:fs";
import * as core from "@a3s-lab/hooks-core";
import { eventSchemas } from "@a3s-lab/hooks-core/internal";
import * as wire from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import * as box from "./index.js";

/**
 * `common-exports.ts` keeps its list of core's names by hand. These tests hold it to core: every
 * event core defines has its type here, and what is listed is core's own.
 */
const source = readFileSync(new URL("./common-exports.ts", import.meta.url), "utf8");

/**
 * The names of each `export [type] { … } from "@a3s-lab/hooks-core"` block (or from its `/wire`
 * subpath), by kind.
 */
function fromCore(kind: "type" | "value"): string[] {
  const block =
    kind === "type"
      ? /export type \{([^}]*)\} from "@a3s-lab\/hooks-core(?:\/wire)?";/g
      : /export \{([^}]*)\} from "@a3s-lab\/hooks-core(?:\/wire)?";/g;
  return [...source.matchAll(block)].flatMap((match) =>
    (match[1] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
}

describe("@a3s-lab/box's re-exports of core", () => {
  it("read both kinds of block (a reader that finds nothing would pass everything)", () => {
    expect(fromCore("type")).toContain("PreToolUseEvent");
    expect(fromCore("value")).toContain("HookError");
    expect(fromCore("type")).toContain("Transport");
    expect(fromCore("value")).toContain("DEFAULT_HOOK_PORT");
  });

  it("name the event type of every event core defines", () => {
    const types = new Set(fromCore("type"));
    const missing = Object.keys(eventSchemas)
      .map((name) => `${name}Event`)
      .filter((type) => !types.has(type));
    expect(missing).toEqual([]);
  });

  it("name no event type core does not define", () => {
    const events = new Set(Object.keys(eventSchemas).map((name) => `${name}Event`));
    const extra = fromCore("type").filter(
      (type) => /^[A-Z]\w*Event$/.test(type) && type !== "AuditEvent" && !events.has(type),
    );
    expect(extra).toEqual([]);
  });

  it("pass on core's own values, not copies", () => {
    const values = fromCore("value");
    expect(values.length).toBeGreaterThan(0);
    const coreValues = new Map<string, unknown>([...Object.entries(core), ...Object.entries(wire)]);
    const boxValues = new Map(Object.entries(box));
    for (const name of values) {
      expect(coreValues.has(name), `${name} is not a value core exports`).toBe(true);
      expect(boxValues.get(name), name).toBe(coreValues.get(name));
    }
  });
});
