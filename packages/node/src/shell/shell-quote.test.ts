// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, not JS templates.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookError } from "@a3s-lab/hooks-core";
import { renderTemplate } from "@a3s-lab/hooks-core/internal";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { quoteForContext, shellContextAt, shellEscaper, shellQuote } from "./shell-quote.js";

const dir = mkdtempSync(join(tmpdir(), "a3s-quote-"));
const canary = join(dir, "CANARY");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Values an attacker would try, each of which runs `touch CANARY` if quoting fails. */
const hostile = [
  `$(touch ${canary})`,
  `\`touch ${canary}\``,
  `'; touch ${canary}; '`,
  `"; touch ${canary}; "`,
  `\ntouch ${canary}\n`,
  `\\'; touch ${canary}; #`,
  `\\"; touch ${canary}; \\"`,
  `'$(touch ${canary})'`,
  `"$(touch ${canary})"`,
  `\${IFS}touch\${IFS}${canary}`,
  `’; touch ${canary}; ‘ “x” ”`,
  `$'\\''; touch ${canary}; '`,
  `) ; touch ${canary} ; (`,
  `}; touch ${canary}; {`,
  `a\\`,
  `\\`,
  `'`,
  `"`,
  "$HOME * ? [a] ~ ! %s %n",
  "",
  "  leading and trailing spaces  ",
  "naïve 日本語 🎉 \u202e",
  "x".repeat(20_000),
];

/** Templates with a placeholder in every supported spot; each prints exactly the value. */
const templates = [
  "printf '%s' {{v}}",
  "printf '%s' pre{{v}}post",
  "printf '%s' 'pre {{v}} post'",
  "printf '%s' \"pre {{v}} post\"",
  "printf '%s' \"$(printf '%s' '{{v}}')\"",
  "printf '%s' \"$(printf '%s' \"{{v}}.\")\"",
  "printf '%s' \"$(printf '%s' {{v}}.)\"",
  "printf '%s' \"${A3S_UNSET_VARIABLE}{{v}}\"",
  "(printf '%s' '{{v}}')",
  "printf '%s' '#{{v}}'",
  "printf '%s' \"it's {{v}}\"",
  "true # a comment with 'quotes'\nprintf '%s' {{v}}",
];

const expected = (template: string, value: string) =>
  ({
    "printf '%s' pre{{v}}post": `pre${value}post`,
    "printf '%s' 'pre {{v}} post'": `pre ${value} post`,
    "printf '%s' \"pre {{v}} post\"": `pre ${value} post`,
    "printf '%s' \"$(printf '%s' \"{{v}}.\")\"": `${value}.`,
    "printf '%s' \"$(printf '%s' {{v}}.)\"": `${value}.`,
    "printf '%s' '#{{v}}'": `#${value}`,
    "printf '%s' \"it's {{v}}\"": `it's ${value}`,
    "printf '%s' \"$(printf '%s' '{{v}}')\"": value.replace(/\n+$/, ""),
  })[template] ?? value;

/**
 * Render every (template, value) pair into one script that writes each output to its own
 * file, run it once with the given shell, and return the outputs.
 */
function runAll(shell: string, values: readonly string[], tag: string): string[][] {
  const lines: string[] = [];
  const files: string[][] = [];
  for (const [t, template] of templates.entries()) {
    files.push([]);
    for (const [v, value] of values.entries()) {
      const out = join(dir, `${tag}-${t}-${v}.out`);
      files[t]!.push(out);
      lines.push(
        `{ ${renderTemplate(template, { v: value }, shellEscaper)}\n} > ${shellQuote(out)}`,
      );
    }
  }
  // On stdin, not in argv: a single argument is capped at 128 KiB.
  const result = spawnSync(shell, [], { input: lines.join("\n"), encoding: "utf8" });
  expect(result.error).toBeUndefined();
  return files.map((row) => row.map((file) => readFileSync(file, "utf8")));
}

describe("shellContextAt", () => {
  it.each([
    ["echo ", "unquoted"],
    ["echo '", "single"],
    ["echo 'a' \"b ", "double"],
    ["echo '[$(date)] BASH: ", "single"],
    ["echo \"it's ", "double"],
    ["echo \"$(printf %s '", "single"],
    ['echo "$(printf %s "', "double"],
    ['echo "$(printf %s x ', "unquoted"],
    ['echo "$(cat x) ', "double"],
    ["echo \\' ", "unquoted"],
    ['echo "\\" ', "double"],
    ["cd ${HOME} && echo '", "single"],
    ['echo $"', "double"],
    ["echo <<< ", "unquoted"],
    ["echo a#b ", "unquoted"],
    ["x=1 # note\necho ", "unquoted"],
    ["echo $$", "unquoted"],
    ["2>/dev/null echo ", "unquoted"],
    ["echo 2>&1 ", "unquoted"],
    ["echo &>", "unquoted"],
    ["cat <(echo ", "unquoted"],
    ["read -r x <<< ", "unquoted"],
    ["[[ -n $x ]] && echo ", "unquoted"],
    ["sh -c 'echo \"$1\"' _ ", "unquoted"],
    ["sh -c 'echo \"$1\"' ", "unquoted"],
    ["bash -e -o pipefail -c 'echo \"$1\"' _ ", "unquoted"],
    ["bash --norc -O extglob -c 'echo \"$1\"' _ ", "unquoted"],
    ["sh -c -- 'echo \"$1\"' _ ", "unquoted"],
    ["bash script.sh ", "unquoted"],
    ["bash -c 'x' -- ", "unquoted"],
    ["npx prettier --write ", "unquoted"],
    ["npx prettier --write -- ", "unquoted"],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh ', "unquoted"],
    ["git add '", "single"],
    ["git add -- ", "unquoted"],
    ["ls ./", "unquoted"],
    ['"$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh" -- ', "unquoted"],
    ["x=1 echo ", "unquoted"],
    ['echo "$(printf %s ', "unquoted"],
    ["printf '%s' ", "unquoted"],
    ["if true; then echo ", "unquoted"],
  ])("%j is %s", (prefix, kind) => {
    expect(shellContextAt(prefix).kind).toBe(kind);
  });

  it.each([
    ["echo `date` ", "`…`"],
    ['echo "`date` ', "`…`"],
    ["echo ${x:-", "${…}"],
    ['echo "${x:-', "${…}"],
    ["echo $((1 + ", "arithmetic"],
    ["(( x = ", "arithmetic"],
    ["echo $[1 + ", "arithmetic"],
    ["cat <<EOF\n", "here-document"],
    ["echo $'", "$'…'"],
    ["echo hi # ", "comment"],
    ["case $x in a) echo ", "case"],
    ["echo x\\", "backslash"],
    ['echo "x\\', "backslash"],
    ["echo $", "`$`"],
    ['echo "$', "`$`"],
    ["echo $'a\\'' ", "backslash"],
    ["echo \\\n#", "comment"],
    ["echo $(#", "comment"],
    ["", "command name"],
    ["true; ", "command name"],
    ['echo x && "', "command name"],
    ["echo x &>/dev/null ", "`&>`"],
    ["(", "command name"],
    ["echo $(", "command name"],
    ["sudo ", "`sudo`"],
    ["env A=1 ", "`env`"],
    ["a[", "command name"],
    ["${X} ", "command name"],
    ['"$CMD" ', "command name"],
    ["$(true) ", "command name"],
    ["while true; do ", "command name"],
    ["eval ", "`eval`"],
    ["[ -n ", "builtin `[`"],
    ["test ", "builtin `test`"],
    ["set -- ", "builtin `set`"],
    ["for w in ", "builtin `for`"],
    ["printf ", "option"],
    ["printf -- ", "format of `printf`"],
    ["python3 -c ", "`python3`"],
    ["awk ", "`awk`"],
    ["cd ", "`cd`"],
    ["npx node -e ", "`npx`"],
    ["e'v'al x ", "`eval`"],
    ["let x=", "`let`"],
    ["[[ $x -eq ", "`[[`"],
    ["[[ a || b -eq ", "`[[`"],
    ["trap '", "`trap`"],
    ["read ", "`read`"],
    [". ", "`.`"],
    ["sh -c ", "-c code"],
    ["/bin/bash -ec '", "-c code"],
    ["bash -o errexit -c ", "-c code"],
    ["bash -O extglob -c ", "-c code"],
    ["bash --rcfile f -c ", "-c code"],
    ['bash -c "$CODE" _ ', "-c code"],
    ["bash --unknown-option -c 'x' _ ", "-c code"],
    ["sh -s ", "-c code"],
    ["X=", "assignment"],
    ["a[1]=", "assignment"],
    ["x=prefix", "assignment"],
    ['x="$(printf %s ', "assignment"],
    ["export x=", "`export`"],
    ["unset ", "`unset`"],
    ["mapfile ", "`mapfile`"],
    ["a=(", "array"],
    ["sudo -u x ", "`sudo`"],
    ["env -S ", "`env`"],
    ["nice -n 5 ", "`nice`"],
    ["timeout 5 ", "`timeout`"],
    ["xargs -0 ", "`xargs`"],
    ["command -p ", "`command`"],
    ["npx ", "`npx`"],
    ['"$DIR"/env ', "`env`"],
    ["npx -y ", "`npx`"],
    ["npx -p pkg ", "`npx`"],
    ["$(printf %s ", "command name"],
    ['eval "$(printf %s ', "`eval`"],
    ["printf -v ", "runs its argument as code"],
    ["[ -v ", "runs its argument as code"],
    ["echo x>&", ">&"],
    ["echo 2>&1", ">&"],
    ["echo <&", ">&"],
    ["printf ", "option"],
    ["bash ", "-c code"],
    ["bash 2>&1 ", "-c code"],
  ])("%j is unsupported (%s)", (prefix, what) => {
    const context = shellContextAt(prefix);
    expect(context.kind).toBe("unsupported");
    expect(context.kind === "unsupported" && context.reason).toContain(what);
  });
});

describe("shellQuote / quoteForContext", () => {
  it("wraps in single quotes and splices inner quotes", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("")).toBe("''");
    expect(quoteForContext("a'b", { kind: "single" })).toBe("a'\\''b");
    expect(quoteForContext('a"$`\\b', { kind: "double" })).toBe('a\\"\\$\\`\\\\b');
  });

  it("refuses NUL bytes and unsupported contexts with a TEMPLATE_ERROR", () => {
    expect(() => shellQuote("a\0b")).toThrow(/NUL/);
    expect(() => quoteForContext("x", { kind: "unsupported", reason: "a comment" })).toThrow(
      HookError,
    );
    const error = (() => {
      try {
        renderTemplate("echo hi # {{message}}", { message: "x" }, shellEscaper);
      } catch (e) {
        return e;
      }
    })();
    expect(HookError.is(error, "TEMPLATE_ERROR")).toBe(true);
    expect((error as Error).message).toContain("{{message}}");
    expect((error as Error).message).toContain("comment");
  });
});

describe.each(["sh", "bash"])("hostile values through %s", (shell) => {
  it("come out byte for byte and run nothing, in every quoting context", () => {
    const outputs = runAll(shell, hostile, `${shell}-hostile`);
    for (const [t, template] of templates.entries()) {
      for (const [v, value] of hostile.entries()) {
        expect({ template, value, out: outputs[t]![v] }).toEqual({
          template,
          value,
          out: expected(template, value),
        });
      }
    }
    expect(existsSync(canary)).toBe(false);
  });

  it("round-trips arbitrary unicode strings (property)", () => {
    const values = fc.sample(
      fc
        .string({
          // Shell metacharacters often, any other code point sometimes.
          unit: fc.oneof(
            fc.constantFrom(..."'\"\\$`()<>{}[]|&;#*?!~ \n\t’“"),
            fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
          ),
          maxLength: 40,
        })
        .filter((s) => !s.includes("\0")),
      { numRuns: 60, seed: 42 },
    );
    const outputs = runAll(shell, values, `${shell}-prop`);
    for (const [t, template] of templates.entries()) {
      for (const [v, value] of values.entries()) {
        expect(outputs[t]![v]).toBe(expected(template, value));
      }
    }
    expect(existsSync(canary)).toBe(false);
  });
});

describe("the CLI-agent hooks specification's templates", () => {
  it("keep a hostile command inside the surrounding quotes", () => {
    const vars = {
      tool_args: { command: `x'; touch ${canary}; echo '` },
      tool_name: "bash_execute",
      result: `$(touch ${canary})`,
    };
    const commands = [
      "echo '[$(date)] BASH: {{tool_args.command}}' > /dev/null",
      "echo '[$(date)] TOOL: {{tool_name}} - {{result}}' | head -c 200 > /dev/null",
      "printf '%s' '{{tool_args.command}}' > /dev/null",
    ].map((t) => renderTemplate(t, vars, shellEscaper));
    const result = spawnSync("sh", ["-c", commands.join("\n")], { encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(existsSync(canary)).toBe(false);
  });
});
