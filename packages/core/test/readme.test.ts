import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

// The README's examples are code users copy: run every ```ts block and check what it prints.
const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const dir = fileURLToPath(new URL("./.readme-tmp/", import.meta.url));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README examples", () => {
  it("has examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((code, i) => [i, code] as const))(
    "example %i runs and prints what its comments say",
    async (i, code) => {
      mkdirSync(dir, { recursive: true });
      const file = `${dir}example-${i}.ts`;
      writeFileSync(file, code);
      const lines: string[] = [];
      const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      });
      try {
        await import(/* @vite-ignore */ file);
      } finally {
        spy.mockRestore();
      }
      // Each `console.log(...); // expected` comment must match the printed line (objects loosely).
      const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((m) => m[1]!);
      const simple = expected.filter((e) => !e.startsWith("{"));
      for (const text of simple) expect(lines).toContain(text);
      expect(lines.length).toBeGreaterThanOrEqual(expected.length);
    },
  );
});
