import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

/**
 * A README's examples are code users copy: run every ```ts block of it (or of one part of it)
 * and check that each `console.log(…); // expected` line prints what its comment says.
 */
export function describeReadmeExamples(options: {
  /** The README, e.g. `new URL("../README.md", import.meta.url)`. */
  readme: URL;
  /** The part of the README to run; the whole file by default. */
  part?: (text: string) => string;
  /** Where the examples are written before import: inside the package, so imports resolve as for a user. */
  scratch: URL;
  /** At least this many examples must be found. */
  minExamples?: number;
}): void {
  const text = readFileSync(fileURLToPath(options.readme), "utf8");
  const blocks = [...(options.part ?? ((t) => t))(text).matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
  const dir = fileURLToPath(options.scratch);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe("README examples", () => {
    it(`has at least ${options.minExamples ?? 1}`, () => {
      expect(blocks.length).toBeGreaterThanOrEqual(options.minExamples ?? 1);
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
        // Objects print as JSON here and loosely in the README: only plain lines are compared.
        for (const line of expected.filter((e) => !e.startsWith("{")))
          expect(lines).toContain(line);
        expect(lines.length).toBeGreaterThanOrEqual(expected.length);
      },
    );
  });
}
