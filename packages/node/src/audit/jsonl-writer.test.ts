import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlWriter } from "./jsonl-writer.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "a3s-jsonl-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);

describe("JsonlWriter", () => {
  it("creates the folder and a private file, one line per value", () => {
    const file = path.join(dir, "deep", "er", "log.jsonl");
    using log = new JsonlWriter(file);
    log.write({ a: 1 });
    log.write({ text: "two\nlines and a \u2028 separator" });
    expect(log.lines).toBe(2);
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(3);
    expect(lines(file)).toEqual([{ a: 1 }, { text: "two\nlines and a \u2028 separator" }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("appends to a file that exists, and keeps its permissions", () => {
    const file = path.join(dir, "log.jsonl");
    writeFileSync(file, '{"old":true}\n', { mode: 0o640 });
    using log = new JsonlWriter(file, { mode: 0o600 });
    log.write({ new: true });
    expect(lines(file)).toEqual([{ old: true }, { new: true }]);
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("writes a 1 MB value whole", () => {
    const file = path.join(dir, "big.jsonl");
    using log = new JsonlWriter(file);
    const big = "x".repeat(1024 * 1024);
    log.write({ big });
    expect(lines(file)).toEqual([{ big }]);
  });

  it("names the argument it cannot use", () => {
    for (const bad of ["", "a\0b", "x".repeat(5000), 42, undefined]) {
      expect(() => new JsonlWriter(bad as string)).toThrow(
        expect.objectContaining({ code: "INVALID_CONFIG", path: ["file"] }),
      );
    }
    for (const mode of [-1, 0o1000, 1.5, Number.NaN]) {
      expect(() => new JsonlWriter(path.join(dir, "m.jsonl"), { mode })).toThrow(
        expect.objectContaining({ code: "INVALID_CONFIG", path: ["options", "mode"] }),
      );
    }
  });

  it("says which file it cannot open", () => {
    const blocker = path.join(dir, "a-file");
    writeFileSync(blocker, "");
    expect(() => new JsonlWriter(path.join(blocker, "log.jsonl"))).toThrow(
      expect.objectContaining({ code: "UNAVAILABLE", message: expect.stringContaining(blocker) }),
    );
    expect(() => new JsonlWriter(dir)).toThrow(expect.objectContaining({ code: "UNAVAILABLE" }));
  });

  it("refuses a symlink in the log's place, and leaves its target alone", () => {
    const target = path.join(dir, "precious");
    writeFileSync(target, "keep me\n");
    const link = path.join(dir, "audit.jsonl");
    symlinkSync(target, link);
    expect(() => new JsonlWriter(link)).toThrow(
      expect.objectContaining({ code: "UNAVAILABLE", message: expect.stringContaining("ELOOP") }),
    );
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
  });

  it("refuses values with no JSON form, and writes after close", () => {
    const file = path.join(dir, "log.jsonl");
    const log = new JsonlWriter(file);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [cyclic, 1n, undefined, () => 1]) {
      expect(() => log.write(bad)).toThrow(expect.objectContaining({ code: "INVALID_OUTPUT" }));
    }
    expect(log.lines).toBe(0);
    log.close();
    log.close();
    expect(log.closed).toBe(true);
    expect(() => log.write({})).toThrow(expect.objectContaining({ code: "UNAVAILABLE" }));
    expect(readFileSync(file, "utf8")).toBe("");
  });

  it("reports a full disk instead of losing the line quietly", () => {
    using log = new JsonlWriter("/dev/full");
    expect(() => log.write({ a: 1 })).toThrow(
      expect.objectContaining({ code: "UNAVAILABLE", message: expect.stringContaining("ENOSPC") }),
    );
    expect(log.lines).toBe(0);
  });
});
