// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, not JS templates.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { createEvent } from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { expect } from "vitest";
import { CommandTemplate } from "../../src/handlers/command/command-template.js";

/**
 * Random command templates built from the shell grammar the quoting lexer follows, and hostile
 * values, for checking that whatever the load check accepts runs none of the values.
 *
 * The canary is a program, `a3s-canary`, on the PATH the rendered commands run with: a value
 * that gets to run a command (`$(a3s-canary)`), or that lands in a command name, creates the
 * canary file.
 */
export interface InjectionLab {
  readonly dir: string;
  readonly canary: string;
  /** Accepted by the load check: whether running it with `value` under `shell` made the canary. */
  run(template: CommandTemplate, value: string, shell: string): boolean;
  dispose(): void;
}

export function injectionLab(): InjectionLab {
  const dir = mkdtempSync(join(tmpdir(), "a3s-inject-"));
  const canary = join(dir, "CANARY");
  const bin = join(dir, "a3s-canary");
  writeFileSync(bin, `#!/bin/sh\n: > '${canary}'\n`);
  chmodSync(bin, 0o755);
  const env = { PATH: `${dir}${delimiter}${process.env.PATH ?? "/usr/bin:/bin"}` };
  return {
    dir,
    canary,
    run(template, value, shell) {
      const event = createEvent("PreToolUse", {
        sessionId: "s",
        tool: "Bash",
        args: { command: value },
      });
      const { file, args } = template.render(event, { cwd: dir, shell, valueLimit: 16_384 });
      rmSync(canary, { force: true });
      // Not in a process group of its own: nothing in the grammar starts a program that lingers.
      spawnSync(file, args, { cwd: dir, env, stdio: "ignore", timeout: 10_000 });
      return existsSync(canary);
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const PLACEHOLDER = "{{tool_args.command}}";

/** Pieces of shell source: quotes, expansions, operators, words and command names. */
const templatePiece = fc.oneof(
  { weight: 4, arbitrary: fc.constant(PLACEHOLDER) },
  { weight: 4, arbitrary: fc.constantFrom(" ", " ", "\n", "\t") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "'",
      '"',
      "\\",
      "$",
      "\\\n",
      "$'",
      '$"',
      "`",
      "#",
      "=",
      "[",
      "]",
      // Brace expansion and globs, which bash (and sh, for globs) turn into other words.
      ",",
      "..",
      "*",
      "?",
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "$(",
      "<(",
      "(",
      ")",
      "{",
      "}",
      ";",
      "&&",
      "||",
      "|",
      "&",
      ">/dev/null",
      "2>&1",
      "&>/dev/null",
      "{fd}>/dev/null",
      "<<<",
      "<<",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "${X}",
      "$X",
      "${X:-",
      "$$",
      "$((",
      "$[",
      "((",
      "x",
      "a",
      "X=",
      "a[",
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "echo",
      "printf",
      "'%s'",
      "true",
      ":",
      "-n",
      "-c",
      "-v",
      "--",
      "if",
      "then",
      "fi",
      "do",
      "done",
      "for",
      "in",
      "case",
      "esac",
      "eval",
      "let",
      "[[",
      "]]",
      "[",
      "test",
      "sh",
      "bash",
      "env",
      "command",
      "exec",
      "read",
      "declare",
      "trap",
      ".",
      "export",
      "jobs",
      "-x",
      "compgen",
      "-W",
      "wait",
      "-p",
    ),
  },
  {
    // Where bash evaluates a variable's content (arithmetic, subscripts, indirection), so a
    // value stored earlier (`X={{…}}`, `set -- {{…}}`, `for X in {{…}}`) runs later.
    weight: 4,
    arbitrary: fc.constantFrom(
      "X=",
      "X=p",
      "set --",
      "for X in",
      "; do :; done",
      "$((X+1))",
      "$(( $1 ))",
      "((X))",
      "let Y=X",
      "[[ $X -gt 1 ]]",
      '"${!X}"',
      '"${X:1}"',
      "${X[0]}",
      "declare -i Y; Y=$X",
      "typeset -i",
      "a=(1);",
      "unset",
      "printf -v",
      "read -r X <<<",
      "mapfile",
      "OPTIND",
    ),
  },
  {
    // Command runners, with options before the command they run, and shells reading stdin.
    weight: 3,
    arbitrary: fc.constantFrom(
      "sudo -u x",
      "env -S",
      "env -i",
      "nice -n 5",
      "timeout 5",
      "nohup",
      "stdbuf -oL",
      "setsid",
      "command -p",
      "bash -o errexit -c",
      "bash -O extglob -c",
      "bash --rcfile /dev/null -c",
      "sh -e -c",
      "'printf %s \"$1\"' _",
      "| bash",
      "| sh",
      // Where a value becomes an option word or a variable name bash evaluates.
      "bash -c 'test $1' _",
      "bash -c 'printf \"$1\"' _",
      "sh -c 'printf $1' _",
      "set -- ",
      "for w in",
      "; do test $w; done",
      "; test $1",
      '; printf "$1" x',
      "python3 -c",
      "perl -e",
      "cd",
      "git --version --",
    ),
  },
);

/** Random pieces: a command, then up to 12 pieces, glued or spaced. */
const pieceTemplate = fc
  .tuple(
    fc.constantFrom("echo ", "printf '%s' ", "x=1 echo ", "true && echo ", "X=", ""),
    fc.array(fc.tuple(templatePiece, fc.constantFrom("", " ", " ")), { maxLength: 12 }),
  )
  .map(([start, pieces]) => start + pieces.map(([piece, gap]) => piece + gap).join(""));

/** Statements that leave the value where later code reads it: a variable, `$1`, a file. */
const storing = fc.constantFrom(
  `X=${PLACEHOLDER}`,
  `X=p${PLACEHOLDER}`,
  `X="$(printf %s ${PLACEHOLDER})"`,
  `export X=${PLACEHOLDER}`,
  `declare X=${PLACEHOLDER}`,
  `set -- ${PLACEHOLDER}; X=$1`,
  `for X in ${PLACEHOLDER}; do :; done`,
  `read -r X <<< ${PLACEHOLDER}`,
  `printf %s ${PLACEHOLDER} > v; read -r X < v`,
  `printf %s ${PLACEHOLDER} | { read -r X; echo "$X"; }`,
  `OPTIND=${PLACEHOLDER}`,
  `echo ${PLACEHOLDER}`,
);

/** Statements where bash evaluates what a variable holds (arithmetic, subscripts, code). */
const evaluating = fc.constantFrom(
  "echo $((X+1))",
  "echo $(( $1 ))",
  "echo $[X]",
  "((X))",
  "let Y=X",
  "[[ $X -gt 1 ]]",
  "[[ -v $X ]]",
  'echo "${!X}"',
  'echo "${HOME:X}"',
  'echo "${X@P}"',
  "a=(1); echo ${a[X]}",
  "declare -i Y; Y=$X",
  "typeset -i Y=X",
  'a=(1); unset "$X"',
  'printf -v "$X" %s 1',
  'test -v "$X"',
  'eval "$X"',
  'bash -c "$X"',
  'echo "$X" | bash',
  'echo "$X" | bash /dev/stdin',
  'echo "$X" | su',
  'echo "$X" | sudo -s',
  'nice -n 5 "$X"',
  'printf %s "$X" | xargs -I{} {}',
  'hash -p "$X" ls; ls',
  'function f { eval "$X"; }; f',
  "$X",
  ":",
  "test $X",
  "[ $X ]",
  'printf "$X" x',
  "printf $X",
  'test "$1"',
  "test $1 $1",
);

/** A value stored by one statement, then read by another. */
const flowTemplate = fc
  .tuple(storing, fc.constantFrom("; ", "\n", " && "), evaluating)
  .map(([store, separator, use]) => store + separator + use);

/** A command runner with options before the word that names what it runs. */
const runnerTemplate = fc
  .tuple(
    fc.constantFrom(
      "sudo -u x",
      "doas -u x",
      "env",
      "env -S",
      "env -i PATH=$PATH",
      "nice -n 5",
      "ionice -c 3",
      "timeout 5",
      "timeout -k 1 5",
      "nohup",
      "stdbuf -oL",
      "setsid",
      "command",
      "command -p",
      "builtin",
      "exec",
      "time -p",
      "xargs -0",
      "bash -o errexit -c",
      "bash -O extglob -c",
      "bash --rcfile /dev/null -c",
      "bash -e -o pipefail -c",
      "sh -e -c",
      "sh -c 'printf %s \"$1\"' _",
      "a=(1); unset",
      "bash -c 'test $1' _",
      "bash -c 'printf \"$1\"' _",
      "bash -c 'printf $1' _",
      "test",
      "[ -n x ] && [",
      "printf",
      "python3 -c",
    ),
    fc.constantFrom(" ", " -- "),
    fc.constantFrom("", " x"),
  )
  .map(([runner, gap, rest]) => runner + gap + PLACEHOLDER + rest);

/** A template with at least one placeholder. */
export const templateSource = fc
  .oneof(
    { weight: 4, arbitrary: pieceTemplate },
    { weight: 1, arbitrary: flowTemplate },
    { weight: 1, arbitrary: runnerTemplate },
  )
  .filter((source) => source.includes(PLACEHOLDER));

/** Values an attacker would send: quotes, substitutions, separators, escapes, NUL, huge. */
export const hostileValue = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(
        fc.constantFrom(
          "'",
          '"',
          "\\",
          "$",
          "`",
          ";",
          "\n",
          "#",
          "(",
          ")",
          "&",
          "|",
          " ",
          "\0",
          "$(a3s-canary)",
          "`a3s-canary`",
          "a3s-canary",
          "; a3s-canary; ",
          "\na3s-canary\n",
          "a[$(a3s-canary)]",
          "$'",
          "-c",
          "-v",
          "-v x[$(a3s-canary)]",
          "-vx[$(a3s-canary)]",
          "x",
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join("")),
  },
  { weight: 1, arbitrary: fc.constant("a3s-canary") },
  { weight: 1, arbitrary: fc.constant("a[$(a3s-canary)]") },
  { weight: 1, arbitrary: fc.constant("-v x[$(a3s-canary)]") },
  { weight: 1, arbitrary: fc.constant("-vx[$(a3s-canary)]") },
  { weight: 1, arbitrary: fc.constant("import os; os.system('a3s-canary')") },
  {
    weight: 1,
    arbitrary: fc.constant(`'; a3s-canary; '$(a3s-canary)"\\${"x".repeat(20_000)}`),
  },
);

/** The template, when the load check accepts it. */
export function accepted(source: string): CommandTemplate | undefined {
  try {
    return new CommandTemplate({ command: source });
  } catch {
    return undefined;
  }
}

/**
 * The property both suites run, `numRuns` times: whatever template the load check accepts,
 * no hostile value makes `sh` or `bash` run the canary.
 */
export function assertNoInjection(lab: InjectionLab, numRuns: number): void {
  fc.assert(
    fc.property(templateSource, hostileValue, (source, value) => {
      const template = accepted(source);
      if (!template) return;
      for (const shell of ["sh", "bash"]) {
        expect({ source, value, shell, ran: lab.run(template, value, shell) }).toEqual({
          source,
          value,
          shell,
          ran: false,
        });
      }
    }),
    { numRuns },
  );
}
