import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AuditEvent,
  block,
  createEvent,
  HookEngine,
  type HookError,
  modify,
} from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeAuditLog } from "./audit-log.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "a3s-audit-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const records = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AuditEvent);

const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

describe("writeAuditLog", () => {
  it("writes an engine's decisions as they happen, one record a line", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const file = path.join(dir, "audit.jsonl");
    using log = writeAuditLog(engine, file);
    engine.register({
      event: "PreToolUse",
      id: "guard",
      handler: (e) => (e.args.command === "rm -rf /" ? block("not that") : undefined),
    });
    engine.register({
      event: "PreToolUse",
      id: "timeout",
      handler: () => modify({ args: { timeout: 5 } }),
    });
    await engine.fire(bash("ls"));
    await engine.fire(bash("rm -rf /"));
    expect(records(file).map((r) => r.type)).toEqual([
      "registered",
      "registered",
      "modified",
      "blocked",
    ]);
    expect(records(file)[3]).toMatchObject({ hookId: "guard", reason: "not that" });
    expect(log.written).toBe(4);
    expect(log.path).toBe(file);
  });

  it("keeps only the types asked for, and stops at close", async () => {
    const engine = new HookEngine({ auditLevel: "verbose" });
    const file = path.join(dir, "audit.jsonl");
    const log = writeAuditLog(engine, file, { types: ["blocked"] });
    engine.register({ event: "PreToolUse", handler: () => block("no") });
    await engine.fire(bash("ls"));
    log.close();
    log.close();
    await engine.fire(bash("ls"));
    expect(records(file).map((r) => r.type)).toEqual(["blocked"]);
  });

  it("never fails a firing over its log: counts the failure and tells onError", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const errors: [HookError, AuditEvent][] = [];
    using log = writeAuditLog(engine, "/dev/full", {
      onError: (error, record) => {
        errors.push([error, record]);
        throw new Error("the handler fails too");
      },
    });
    engine.register({ event: "PreToolUse", handler: () => block("no") });
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(log.failed).toBe(2);
    expect(log.written).toBe(0);
    expect(errors.map(([e, r]) => [e.code, r.type])).toEqual([
      ["UNAVAILABLE", "registered"],
      ["UNAVAILABLE", "blocked"],
    ]);
  });

  it("warns once by default, then only counts", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const engine = new HookEngine({ auditLevel: "info" });
    using log = writeAuditLog(engine, "/dev/full");
    engine.register({ event: "PreToolUse", handler: () => block("no") });
    await engine.fire(bash("ls"));
    expect(log.failed).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^audit log: .*ENOSPC/);
  });

  it("names what is wrong before it creates any file", () => {
    const file = path.join(dir, "never.jsonl");
    const engine = new HookEngine();
    expect(() => writeAuditLog({} as never, file)).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", path: ["source"] }),
    );
    expect(() => writeAuditLog(engine, file, { types: ["blocked", "nope" as never] })).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", path: ["options", "types", 1] }),
    );
    expect(() => writeAuditLog(engine, file, { types: [] })).toThrow(
      expect.objectContaining({ path: ["options", "types"] }),
    );
    expect(() => writeAuditLog(engine, file, { types: "blocked" as never })).toThrow(
      expect.objectContaining({ path: ["options", "types"] }),
    );
    expect(() => writeAuditLog(engine, file, null as never)).toThrow(
      expect.objectContaining({ path: ["options"] }),
    );
    expect(() => writeAuditLog(engine, file, { onError: 42 as never })).toThrow(
      expect.objectContaining({ path: ["options", "onError"] }),
    );
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
    // A file it cannot open leaves no listener behind.
    let listening = 0;
    const source = {
      onAudit: (_listener: (record: AuditEvent) => void) => {
        listening++;
        const stop = () => void listening--;
        return Object.assign(stop, { [Symbol.dispose]: stop });
      },
    };
    expect(() => writeAuditLog(source, "")).toThrow(expect.objectContaining({ path: ["file"] }));
    expect(listening).toBe(0);
  });
});
