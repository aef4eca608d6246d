import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

interface Example {
  /** The scratch file's name, from the document's name and the example's place in it. */
  name: string;
  code: string;
}

/**
 * A README's examples are code users copy: run every ```ts block of it (or of one part of it)
 * and check that each `console.log(…); // expected` line prints what its comment says. Pass
 * several documents (the guides in docs/guide/) to run all their examples, and a tsconfig to
 * typecheck them as well.
 */
export function describeReadmeExamples(options: {
  /** The README, e.g. `new URL("../README.md", import.meta.url)`, or several documents. */
  readme: URL | readonly URL[];
  /** The part of each document to run; the whole file by default. */
  part?: (text: string) => string;
  /** Where the examples are written before import: inside the package, so imports resolve as for a user. */
  scratch: URL;
  /** At least this many examples must be found (in all the documents together). */
  minExamples?: number;
  /**
   * Typecheck every example with `tsc` under this tsconfig (the package's own): each example
   * is a module of its own, and all of them one program, but for those that augment a module.
   */
  tsconfig?: URL;
  /**
   * Run each example as a reader would, in its own process, and return what it printed on
   * stdout, one entry a line (the guides: `pnpm example FILE.ts` from the repository root).
   * By default each is imported into the test's own process.
   */
  run?: (file: string) => Promise<string[]>;
  /**
   * Per example: a hang guard, not a timing check. The default matches the suites' own 30 s:
   * the first example pays for transforming the package's source, which on two shared cores
   * running several test files at once took over 5 s.
   */
  timeoutMs?: number;
}): void {
  const documents = options.readme instanceof URL ? [options.readme] : options.readme;
  const examples: Example[] = documents.flatMap((doc) => {
    const text = readFileSync(fileURLToPath(doc), "utf8");
    const stem = basename(fileURLToPath(doc), ".md").toLowerCase();
    return [...(options.part ?? ((t) => t))(text).matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (m, i) => ({ name: `${stem}-${i}`, code: m[1]! }),
    );
  });
  const dir = fileURLToPath(options.scratch);

  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    for (const { name, code } of examples) writeFileSync(`${dir}${name}.ts`, code);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe("README examples", () => {
    it(`has at least ${options.minExamples ?? 1}`, () => {
      expect(examples.length).toBeGreaterThanOrEqual(options.minExamples ?? 1);
    });

    if (options.tsconfig) {
      const tsconfig = fileURLToPath(options.tsconfig);
      // The workspace packages the examples import come in through the tsconfig's project
      // references, as their declarations: `tsc -b` brings those up to date first (the test
      // command has built them already), then checks only the examples. Without them, each
      // example program would typecheck every package's source again. (`extends` does not carry
      // `references`, so they are copied.)
      const { references = [] } = JSON.parse(readFileSync(tsconfig, "utf8")) as {
        references?: { path: string }[];
      };
      // An example that augments a module (`declare module`, as for a host's own events)
      // changes the types of every file of its program: it gets a program of its own.
      const programs = [
        examples.filter((e) => !e.code.includes("declare module")),
        ...examples.filter((e) => e.code.includes("declare module")).map((e) => [e]),
      ].filter((program) => program.length > 0);
      it("typecheck", { timeout: 120_000 * programs.length }, () => {
        // The native compiler (TypeScript 7), which the packages' own typecheck uses; its
        // exports do not name the launcher, so it is found beside the package's manifest.
        const tsc = join(
          dirname(createRequire(tsconfig).resolve("@typescript/native/package.json")),
          "bin/tsc",
        );
        const projects = programs.map((program, i) => {
          const project = `${dir}tsconfig-${i}.json`;
          writeFileSync(
            project,
            JSON.stringify({
              extends: relative(dir, tsconfig),
              // Its own build info, not the package's (which `extends` would name).
              compilerOptions: { tsBuildInfoFile: `./tsconfig-${i}.tsbuildinfo` },
              files: program.map((e) => `./${e.name}.ts`),
              include: [],
              references: references.map((r) => ({
                path: relative(dir, resolve(dirname(tsconfig), r.path)),
              })),
            }),
          );
          return project;
        });
        try {
          // One `tsc -b` for all the programs: it reads the references' declarations once.
          execFileSync(process.execPath, [tsc, "-b", ...projects], { encoding: "utf8" });
        } catch (error) {
          // tsc lists each error with the example's file, line and column.
          const { stdout } = error as { stdout?: string };
          expect.fail(`the examples do not typecheck:\n${stdout ?? String(error)}`);
        }
      });
    }

    it.each(examples.map(({ name, code }) => [name, code] as const))(
      "example %s runs and prints what its comments say",
      { timeout: options.timeoutMs ?? 30_000 },
      async (name, code) => {
        const lines: string[] = [];
        if (options.run) lines.push(...(await options.run(`${dir}${name}.ts`)));
        else {
          const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
            lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
          });
          try {
            await import(/* @vite-ignore */ `${dir}${name}.ts`);
          } finally {
            spy.mockRestore();
          }
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
