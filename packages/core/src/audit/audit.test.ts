import { describe, expect, it } from "vitest";
import { HookError } from "../base/hook-error.js";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import { block } from "../merge/hook-response.js";
import { type AuditEvent, type AuditSource, auditTypeFilter, onAudit } from "./audit.js";

describe("onAudit", () => {
  it("hears every record of a HookEngine, and stops when told", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const records: AuditEvent[] = [];
    const stop = onAudit(engine, (record) => records.push(record));
    engine.register({ event: "Stop", id: "h", handler: () => block("not yet") });
    await engine.fire(createEvent("Stop", { sessionId: "s", stopHookActive: false }));
    expect(records.map((r) => r.type)).toEqual(["registered", "blocked"]);
    stop();
    engine.unregister("h");
    expect(records).toHaveLength(2);
  });

  it("stops with a signal, or at the end of a using block", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const records: AuditEvent[] = [];
    const controller = new AbortController();
    onAudit(engine, (record) => records.push(record), { signal: controller.signal });
    {
      using _scoped = onAudit(engine, (record) => records.push(record));
      engine.register({ event: "Stop", id: "a", handler: () => undefined });
    }
    controller.abort();
    engine.register({ event: "Stop", id: "b", handler: () => undefined });
    expect(records.map((r) => r.type === "registered" && r.hookId)).toEqual(["a", "a"]);
  });

  it("hears a client's records through its onAudit", () => {
    const listeners = new Map<string, (record: AuditEvent) => void>();
    // The shape of an A3sClient: onAudit(listener) → unsubscribe, and no fire().
    const client = {
      onAudit(listener: (record: AuditEvent) => void) {
        listeners.set("audit", listener);
        const stop = () => void listeners.delete("audit");
        return Object.assign(stop, { [Symbol.dispose]: stop });
      },
    } satisfies AuditSource;
    const records: AuditEvent[] = [];
    const stop = onAudit(client, (record) => records.push(record));
    const record: AuditEvent = { type: "warning", time: 1, message: "m" };
    listeners.get("audit")!(record);
    expect(records).toEqual([record]);
    stop();
    expect(listeners.size).toBe(0);
  });

  it("names the argument that is not a source or a listener", () => {
    for (const bad of [null, undefined, 42, "engine", {}, { onAudit: "x" }, { on: () => {} }]) {
      expect(() => onAudit(bad as never, () => undefined)).toThrow(
        expect.objectContaining({ code: "INVALID_CONFIG", path: ["source"] }),
      );
    }
    expect(() => onAudit(new HookEngine(), "log" as never)).toThrow(HookError);
    expect(() => onAudit(new HookEngine(), null as never)).toThrow(/^listener: /);
    expect(() => onAudit(new HookEngine(), () => undefined, null as never)).toThrow(
      expect.objectContaining({ path: ["options"] }),
    );
  });
});

describe("auditTypeFilter", () => {
  it("keeps the types named, or every type when none are", () => {
    expect(auditTypeFilter(undefined)).toBeUndefined();
    expect([...auditTypeFilter(["blocked", "failed", "blocked"])!]).toEqual(["blocked", "failed"]);
  });

  it("names the option, or the entry, that is not a record type", () => {
    const at = (types: unknown, path: readonly (string | number)[] = ["options", "types"]) => {
      try {
        auditTypeFilter(types, path);
      } catch (error) {
        return { code: (error as HookError).code, path: (error as HookError).path };
      }
      return undefined;
    };
    expect(at([])).toEqual({ code: "INVALID_CONFIG", path: ["options", "types"] });
    expect(at("blocked")).toEqual({ code: "INVALID_CONFIG", path: ["options", "types"] });
    expect(at(["blocked", "constructor"])).toEqual({
      code: "INVALID_CONFIG",
      path: ["options", "types", 1],
    });
    expect(at([null], ["types"])).toEqual({ code: "INVALID_CONFIG", path: ["types", 0] });
  });
});
