import { afterEach, describe, expect, it, vi } from "vitest";
import { HookError } from "../base/hook-error.js";
import { HookEngine } from "../engine/hook-engine.js";
import { createEvent } from "../events/create-event.js";
import { block, modify } from "../merge/hook-response.js";
import type { AuditEvent } from "./audit.js";
import { type AuditConsole, formatAuditRecord, logAudit } from "./audit-format.js";

const base = { time: 1_700_000_000_000, event: "PreToolUse" as const, eventId: "e1" };
const stop = () => createEvent("Stop", { sessionId: "s", stopHookActive: false });
const bash = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command } });

/** Every control, separator, bidi override and lone surrogate the formatter must escape. */
const UNSAFE_CHAR = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("formatAuditRecord", () => {
  it("says in one line what each type of record reports", () => {
    const cases: [AuditEvent, string][] = [
      [
        { type: "registered", time: 1, hookId: "perm-1", event: "PreToolUse" },
        "registered PreToolUse (hook perm-1)",
      ],
      [
        {
          type: "registered",
          time: 1,
          hookId: "c1/h1",
          event: "Stop",
          name: "keep going",
          source: "remote:c1",
        },
        "registered Stop (hook c1/h1): name keep going, from remote:c1",
      ],
      [
        { type: "unregistered", time: 1, hookId: "h1", event: "Stop", reason: "once" },
        "unregistered Stop (hook h1): once",
      ],
      [{ type: "started", ...base, hookId: "h1" }, "started PreToolUse (hook h1): event e1"],
      [
        { type: "completed", ...base, hookId: "h1", action: "continue", duration: 3 },
        "completed PreToolUse (hook h1): continue in 3 ms",
      ],
      [
        {
          type: "failed",
          ...base,
          event: "Stop",
          hookId: "h2",
          code: "TIMEOUT",
          message: "",
          duration: 30,
        },
        "failed Stop (hook h2): TIMEOUT after 30 ms",
      ],
      [
        {
          type: "failed",
          ...base,
          hookId: "h2",
          code: "HANDLER_FAILED",
          message: "boom",
          duration: 4,
        },
        "failed PreToolUse (hook h2): HANDLER_FAILED after 4 ms: boom",
      ],
      [
        { type: "timed_out", ...base, hookId: "slow", timeout: 5000 },
        "timed_out PreToolUse (hook slow): no answer within 5000 ms",
      ],
      [
        { type: "blocked", ...base, hookId: "perm-1", reason: "rm is not allowed" },
        "blocked PreToolUse (hook perm-1): rm is not allowed",
      ],
      [
        {
          type: "modified",
          ...base,
          hookId: "h3",
          paths: ["args.command", "args.timeout"],
          conflicts: ["args.timeout"],
        },
        "modified PreToolUse (hook h3): args.command, args.timeout (overwrote another hook's args.timeout)",
      ],
      [
        { type: "modified", ...base, hookId: "h3", paths: ["args.a"], conflicts: [] },
        "modified PreToolUse (hook h3): args.a",
      ],
      [
        { type: "warning", ...base, hookId: "h4", message: "matcher threw" },
        "warning PreToolUse (hook h4): matcher threw",
      ],
      [{ type: "warning", time: 1, message: "settings reloaded" }, "warning: settings reloaded"],
    ];
    for (const [record, line] of cases) expect(formatAuditRecord(record)).toBe(line);
  });

  it("formats what a real engine reports", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine({ auditLevel: "info" });
    const lines: string[] = [];
    engine.on("*", (record) => lines.push(formatAuditRecord(record)));
    engine.register({
      id: "h2",
      event: "Stop",
      handler: () => {
        throw new Error("model said no");
      },
    });
    engine.register({
      id: "slow",
      event: "Stop",
      timeoutMs: 30,
      handler: () => new Promise(() => {}),
    });
    const firing = engine.fire(stop());
    await vi.advanceTimersByTimeAsync(30);
    await firing;
    expect(lines).toContain("registered Stop (hook h2)");
    expect(lines).toContain("timed_out Stop (hook slow): no answer within 30 ms");
    expect(lines.find((l) => l.startsWith("failed"))).toMatch(
      /^failed Stop \(hook h2\): HANDLER_FAILED after \d+ ms: .*model said no$/,
    );
  });

  it("keeps hostile text on one bounded line", () => {
    const hostile =
      "ok\nfailed Stop (hook forged): x\r\u001b[2J\u0007\u2028\u202eevil\u2066\ud800end";
    const line = formatAuditRecord({ type: "blocked", ...base, hookId: "h\n1", reason: hostile });
    expect(line).not.toMatch(UNSAFE_CHAR);
    expect(line).toBe(
      "blocked PreToolUse (hook h\\n1): ok\\nfailed Stop (hook forged): x\\r\\u001b[2J\\u0007\\u2028\\u202eevil\\u2066\\ud800end",
    );
    // Characters outside the BMP are text, not something to escape.
    expect(formatAuditRecord({ type: "warning", time: 1, message: "🙂 done" })).toBe(
      "warning: 🙂 done",
    );
  });

  it("cuts a 10 MB reason to about 500 characters, ending with an ellipsis", () => {
    const reason = `${"\n".repeat(10)}${"x".repeat(10 * 1024 * 1024)}`;
    const line = formatAuditRecord({ type: "blocked", ...base, hookId: "h", reason });
    expect(line.length).toBeLessThanOrEqual(500);
    expect(line.length).toBeGreaterThan(400);
    expect(line.endsWith("…")).toBe(true);
    expect(line).not.toMatch(UNSAFE_CHAR);
  });

  it("never cuts a character in half", () => {
    for (let pad = 0; pad < 4; pad++) {
      const reason = `${"a".repeat(pad)}${"🙂".repeat(400)}`;
      const line = formatAuditRecord({ type: "blocked", ...base, hookId: "h", reason });
      expect(line).not.toMatch(/\p{Cs}/u);
      expect(line.length).toBeLessThanOrEqual(500);
    }
  });

  it("shows fields of the wrong kind instead of throwing", () => {
    const odd = {
      type: "blocked",
      time: 1,
      event: { toString: null },
      hookId: 7,
      reason: { nested: "x".repeat(1000) },
    } as unknown as AuditEvent;
    const line = formatAuditRecord(odd);
    expect(line).toMatch(/^blocked \{"toString":null\} \(hook 7\): \{"nested":"x+… \(\d+ chars\)$/);
    // A record type newer than this package: its message still shows.
    expect(formatAuditRecord({ type: "paused", time: 1, message: "m" } as never)).toBe("paused: m");
  });

  it("names a record that is not one", () => {
    for (const bad of [null, undefined, 42, "blocked", {}, { type: 1 }]) {
      expect(() => formatAuditRecord(bad as never)).toThrow(
        expect.objectContaining({ code: "INVALID_EVENT", path: ["record"] }),
      );
    }
  });
});

/** A console that remembers which method wrote each line. */
function recordingConsole(): AuditConsole & { lines: [string, string][] } {
  const lines: [string, string][] = [];
  const at = (level: string) => (line: unknown) => lines.push([level, String(line)]);
  return { lines, info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug") };
}

describe("logAudit", () => {
  it("writes each record of an engine at its severity", async () => {
    vi.useFakeTimers();
    const engine = new HookEngine({ auditLevel: "verbose" });
    const out = recordingConsole();
    const stopLogging = logAudit(engine, { console: out });
    engine.register({
      id: "perm-1",
      event: "PreToolUse",
      handler: () => block("rm is not allowed"),
    });
    engine.register({
      id: "t",
      event: "PreToolUse",
      handler: () => modify({ args: { timeout: 1 } }),
    });
    engine.register({
      id: "slow",
      event: "Stop",
      timeoutMs: 30,
      handler: () => new Promise(() => {}),
    });
    engine.register({
      id: "bad",
      event: "Stop",
      handler: () => {
        throw new Error("boom");
      },
    });
    await engine.fire(bash("rm -rf /"));
    engine.unregister("perm-1");
    await engine.fire(bash("ls"));
    const firing = engine.fire(stop());
    await vi.advanceTimersByTimeAsync(30);
    await firing;
    engine.warn("late answer");
    stopLogging();

    const levelOf = (prefix: string) => [
      ...new Set(out.lines.filter(([, line]) => line.startsWith(prefix)).map(([l]) => l)),
    ];
    expect(levelOf("registered")).toEqual(["info"]);
    expect(levelOf("unregistered")).toEqual(["info"]);
    expect(levelOf("modified")).toEqual(["info"]);
    expect(levelOf("started")).toEqual(["debug"]);
    expect(levelOf("completed")).toEqual(["debug"]);
    expect(levelOf("blocked")).toEqual(["warn"]);
    expect(levelOf("warning")).toEqual(["warn"]);
    expect(levelOf("failed")).toEqual(["error"]);
    expect(levelOf("timed_out")).toEqual(["error"]);
    expect(out.lines).toContainEqual([
      "warn",
      "blocked PreToolUse (hook perm-1): rm is not allowed",
    ]);
  });

  it("logs only the types asked for, and stops when told (idempotent, or with using)", () => {
    const engine = new HookEngine();
    const out = recordingConsole();
    const stopLogging = logAudit(engine, { console: out, types: ["warning"] });
    engine.register({ id: "h", event: "Stop", handler: () => undefined });
    engine.warn("one");
    stopLogging();
    stopLogging();
    engine.warn("two");
    {
      using _logging = logAudit(engine, { console: out });
      engine.warn("three");
    }
    engine.warn("four");
    expect(out.lines).toEqual([
      ["warn", "warning: one"],
      ["warn", "warning: three"],
    ]);
  });

  it("writes to the global console by default", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const engine = new HookEngine();
    const stopLogging = logAudit(engine);
    engine.warn("to the console");
    stopLogging();
    expect(warn).toHaveBeenCalledWith("warning: to the console");
  });

  it("reports a console that throws, and the engine's firing goes on", async () => {
    const reported: unknown[] = [];
    vi.stubGlobal("reportError", (error: unknown) => reported.push(error));
    const engine = new HookEngine();
    const broken = new Error("console is gone");
    const out = {
      ...recordingConsole(),
      warn: () => {
        throw broken;
      },
    };
    logAudit(engine, { console: out });
    engine.register({ id: "h", event: "Stop", handler: () => block("not yet") });
    const result = await engine.fire(stop());
    expect(result).toMatchObject({ action: "block", reason: "not yet" });
    expect(reported).toEqual([broken]);
  });

  it("names bad options", () => {
    const engine = new HookEngine();
    const cases: [unknown, (string | number)[]][] = [
      [{ console: null }, ["options", "console"]],
      [{ console: "console" }, ["options", "console"]],
      [{ console: { info() {}, warn() {}, error() {} } }, ["options", "console", "debug"]],
      [{ types: ["blocked", "typo"] }, ["options", "types", 1]],
      [{ types: [] }, ["options", "types"]],
      [{ level: "warn" }, ["options", "level"]],
      ["verbose", ["options"]],
    ];
    for (const [options, path] of cases) {
      let error: unknown;
      try {
        logAudit(engine, options as never);
      } catch (caught) {
        error = caught;
      }
      expect(HookError.is(error, "INVALID_CONFIG"), JSON.stringify(options)).toBe(true);
      expect((error as HookError).path).toEqual(path);
      expect((error as HookError).message.startsWith(path.join("."))).toBe(true);
    }
    expect(() => logAudit(null as never)).toThrow(expect.objectContaining({ path: ["source"] }));
  });
});
