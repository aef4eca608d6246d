import { BenchError } from "./bench-error.js";

/** What the command line asked for. */
export interface BenchOptions {
  smoke: boolean;
  /** Where results.md, results.json and results.svg go. Default: `bench/` (full) or `bench/.tmp/` (smoke). */
  outDir: string | undefined;
  /** Suite ids to run; undefined for all. */
  only: string[] | undefined;
  /** Exit with status 1 when a goal is missed (full runs only). */
  strict: boolean;
  help: boolean;
}

export const USAGE = `Usage: pnpm bench [--smoke] [--only <suite,...>] [--out <dir>] [--strict] [--cpu-prof]

  --smoke          a few iterations of every row, no verdicts, under a minute
  --only <ids>     run these suites only (comma-separated): %SUITES%
  --out <dir>      write results.md, .json and .svg here (default bench/, or bench/.tmp/ with --smoke)
  --strict         exit with status 1 when a goal is missed
  --cpu-prof       write a CPU profile of the run and of every child to bench/.tmp/profiles
  --help           this text`;

const MAX_ARG = 4096;

/**
 * Parse the command line. Rejects unknown, repeated and malformed flags with a BenchError
 * naming the flag, rather than running a benchmark that is not the one asked for.
 */
export function parseOptions(argv: readonly string[], suiteIds: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    smoke: false,
    outDir: undefined,
    only: undefined,
    strict: false,
    help: false,
  };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.length > MAX_ARG) {
      throw new BenchError(
        "INVALID_OPTION",
        `argument ${i + 1}: longer than ${MAX_ARG} characters`,
      );
    }
    // `pnpm bench -- --smoke` passes the separator through.
    if (arg === "--") continue;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    if (seen.has(flag!)) throw new BenchError("INVALID_OPTION", `${flag}: given twice`);
    seen.add(flag!);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "" || (inline === undefined && v.startsWith("--"))) {
        throw new BenchError("INVALID_OPTION", `${flag}: expects a value`);
      }
      if (v.length > MAX_ARG)
        throw new BenchError("INVALID_OPTION", `${flag}: value longer than ${MAX_ARG} characters`);
      return v;
    };
    const noValue = () => {
      if (inline !== undefined) throw new BenchError("INVALID_OPTION", `${flag}: takes no value`);
    };
    switch (flag) {
      case "--smoke":
        noValue();
        options.smoke = true;
        break;
      case "--strict":
        noValue();
        options.strict = true;
        break;
      case "--help":
      case "-h":
        noValue();
        options.help = true;
        break;
      case "--out": {
        const dir = value();
        if (dir.includes("\0"))
          throw new BenchError("INVALID_OPTION", "--out: contains a NUL byte");
        options.outDir = dir;
        break;
      }
      case "--only": {
        const ids = value()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = ids.filter((id) => !suiteIds.includes(id));
        if (ids.length === 0 || unknown.length > 0) {
          throw new BenchError(
            "INVALID_OPTION",
            `--only: unknown suite ${JSON.stringify(unknown[0] ?? "")} (known: ${suiteIds.join(", ")})`,
          );
        }
        options.only = ids;
        break;
      }
      default:
        throw new BenchError(
          "INVALID_OPTION",
          `${JSON.stringify(arg.slice(0, 80))}: unknown argument (try --help)`,
        );
    }
  }
  return options;
}
