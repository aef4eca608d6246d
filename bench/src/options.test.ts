import { describe, expect, it } from "vitest";
import { BenchError } from "./bench-error.js";
import { parseOptions } from "./options.js";

const suites = ["fire-no-match", "matchers", "memory"];
const parse = (...argv: string[]) => parseOptions(argv, suites);

describe("parseOptions", () => {
  it("defaults to a full run of everything", () => {
    expect(parse()).toEqual({
      smoke: false,
      outDir: undefined,
      only: undefined,
      strict: false,
      help: false,
    });
  });

  it("reads every flag, with values after a space or an equals sign", () => {
    expect(parse("--smoke", "--out", "/tmp/x", "--only", "matchers, memory", "--strict")).toEqual({
      smoke: true,
      outDir: "/tmp/x",
      only: ["matchers", "memory"],
      strict: true,
      help: false,
    });
    expect(parse("--out=/tmp/y", "--only=memory").outDir).toBe("/tmp/y");
    expect(parse("-h").help).toBe(true);
    // `pnpm bench -- --smoke` hands the separator through.
    expect(parse("--", "--smoke").smoke).toBe(true);
  });

  it("rejects unknown, repeated and malformed flags, naming the flag", () => {
    const code = (...argv: string[]) => {
      try {
        parse(...argv);
      } catch (error) {
        expect(error).toBeInstanceOf(BenchError);
        return `${(error as BenchError).code}: ${(error as BenchError).message}`;
      }
      throw new Error("expected a BenchError");
    };
    expect(code("--fast")).toBe('INVALID_OPTION: "--fast": unknown argument (try --help)');
    expect(code("smoke")).toMatch(/"smoke": unknown argument/);
    expect(code("--smoke", "--smoke")).toBe("INVALID_OPTION: --smoke: given twice");
    expect(code("--out")).toBe("INVALID_OPTION: --out: expects a value");
    expect(code("--out", "--smoke")).toBe("INVALID_OPTION: --out: expects a value");
    expect(code("--out=")).toBe("INVALID_OPTION: --out: expects a value");
    expect(code("--smoke=yes")).toBe("INVALID_OPTION: --smoke: takes no value");
    expect(code("--only", "matchers,bogus")).toMatch(
      /--only: unknown suite "bogus" \(known: fire-no-match, matchers, memory\)/,
    );
    expect(code("--only", ",")).toMatch(/--only: unknown suite ""/);
    expect(code("--out", "a\0b")).toBe("INVALID_OPTION: --out: contains a NUL byte");
  });

  it("refuses huge arguments instead of echoing them back", () => {
    const huge = `--${"x".repeat(100_000)}`;
    let message = "";
    try {
      parse(huge);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("argument 1: longer than 4096 characters");
    expect(() => parse("--out", "y".repeat(5000))).toThrow(
      "--out: value longer than 4096 characters",
    );
  });
});
