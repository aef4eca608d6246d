import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The README's TypeScript examples of command hooks and settings are code users copy: run each
// and check what it prints. (Sections after "## Hook server" belong to the server's own tests.)
const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
const ours = readme.split(/^## Hook server/m)[0]!;
const blocks = [...ours.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const dir = fileURLToPath(new URL("./.readme-tmp/", import.meta.url));
let home: string;

beforeAll(() => {
  // The examples read the user's settings files: give them an empty home.
  home = mkdtempSync(`${tmpdir()}/a3s-readme-home-`);
  vi.stubEnv("HOME", home);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

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
      const expected = [...code.matchAll(/console\.log\(.*\);[ \t]*\/\/ (.*)$/gm)].map(
        (m) => m[1]!,
      );
      expect(expected.length).toBeGreaterThan(0);
      for (const text of expected) expect(lines).toContain(text);
    },
  );
});
