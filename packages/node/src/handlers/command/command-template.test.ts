// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, not JS templates.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { assertNoInjection, injectionLab } from "../../../test/command/template-injection.js";
import { CommandTemplate } from "./command-template.js";

const dir = mkdtempSync(join(tmpdir(), "a3s-template-"));
const canary = join(dir, "CANARY");
afterEach(() => rmSync(canary, { force: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

/**
 * What the settings check decides about `template`, and, when it accepts it, whether running
 * the rendered command with `value` under `shell` created the canary.
 */
function attempt(template: string, value: string, shell: string) {
  let compiled: CommandTemplate;
  try {
    compiled = new CommandTemplate({ command: template });
  } catch (error) {
    return { refused: error };
  }
  const { file, args } = compiled.render(event(value), { cwd: dir, shell, valueLimit: 16_384 });
  spawnSync(file, args, { cwd: dir, stdio: "ignore", timeout: 10_000 });
  return { ran: true, canary: existsSync(canary) };
}

describe("placeholders no quoting can protect are refused when the template is compiled", () => {
  it.each([
    ['echo "x\\{{tool_args.command}}"', "$(touch CANARY)", "sh", "backslash"],
    ["echo x\\{{tool_args.command}}", '\\"; touch CANARY; #', "sh", "backslash"],
    ['echo "${{tool_args.command}}"', "(touch CANARY)", "sh", "$"],
    ["echo ${{tool_args.command}}", "\\'; touch CANARY; #", "bash", "$"],
  ])("%s with %j under %s", (template, value, shell, why) => {
    const outcome = attempt(template, value, shell);
    expect(outcome).not.toHaveProperty("canary", true);
    expect(HookError.is(outcome.refused, "TEMPLATE_ERROR")).toBe(true);
    const message = (outcome.refused as Error).message;
    expect(message).toContain("{{tool_args.command}}");
    expect(message).toContain(why);
  });
});

describe("placeholders whose value could reach code elsewhere in the template are refused", () => {
  const V = "{{tool_args.command}}";
  const SUBSCRIPT = "a[$(touch CANARY)]";
  it.each([
    // bash evaluates a variable's content as arithmetic, where a subscript runs `$( … )`.
    [`x=${V}; echo $((x+1))`, SUBSCRIPT, "assignment"],
    [`x=${V}; [[ $x -gt 1 ]]`, SUBSCRIPT, "assignment"],
    [`x=${V}; echo "\${!x}"`, SUBSCRIPT, "assignment"],
    [`x=${V}; declare -i y; y=$x`, SUBSCRIPT, "assignment"],
    [`x=${V}; let y=x`, SUBSCRIPT, "assignment"],
    [`x=${V}; (( x ))`, SUBSCRIPT, "assignment"],
    [`x=prefix${V}; echo $((x))`, SUBSCRIPT, "assignment"],
    [`x="$(printf %s ${V})"; echo $((x))`, SUBSCRIPT, "assignment"],
    [`set -- ${V}; echo $(( $1 ))`, SUBSCRIPT, "arithmetic"],
    [`for i in ${V}; do [[ $i -eq 1 ]]; done`, SUBSCRIPT, "`for`"],
    [`printf %s ${V} > f; read -r x < f; echo $((x))`, SUBSCRIPT, "read"],
    [`for i in ${V}; do echo "\${HOME:i}"; done`, SUBSCRIPT, "`for`"],
    [`a=(1); unset ${V}`, SUBSCRIPT, "array"],
    [`unset ${V}`, SUBSCRIPT, "unset"],
    [`for OPTIND in ${V}; do :; done`, SUBSCRIPT, "`for`"],
    // Options that take their own argument before `-c`.
    [`bash -o errexit -c ${V}`, "touch CANARY", "-c code"],
    [`bash -O extglob -c ${V}`, "touch CANARY", "-c code"],
    [`bash --rcfile /dev/null -c ${V}`, "touch CANARY", "-c code"],
    [`bash -c 'echo $(( $1 ))' _ ${V}`, SUBSCRIPT, "arithmetic"],
    [`printf '%s\\n' ${V} | bash`, "touch CANARY", "standard input"],
    [`printf '%s\\n' ${V} | bash /dev/stdin`, "touch CANARY", "standard input"],
    [`printf '%s\\n' ${V} | bash -- /proc/self/fd/0`, "touch CANARY", "standard input"],
    // `--` ends the options and names no script: the commands come from stdin.
    [`echo ${V}${V}| bash --`, "touch CANARY", "standard input"],
    [`printf '%s\\n' ${V} | sh -e --`, "touch CANARY", "standard input"],
    [`printf '%s\\n' ${V} | su`, "touch CANARY", "su"],
    [`printf '%s\\n' ${V} | sudo -s`, "touch CANARY", "sudo"],
    [`printf '%s\\n' ${V} | bash //dev/stdin`, "touch CANARY", "standard input"],
    [
      `printf '%s\\n' ${V} | sh ../../../../../../../../dev/stdin`,
      "touch CANARY",
      "standard input",
    ],
    // Command runners with options: the value would pick the program.
    [`sudo -u root ${V} CANARY`, "touch", "sudo"],
    [`env -S ${V}`, "touch CANARY", "env"],
    [`nice -n 5 ${V} CANARY`, "touch", "nice"],
    [`timeout 5 ${V} CANARY`, "touch", "timeout"],
    [`command -p ${V} CANARY`, "touch", "command"],
    [`set -- ${V}; nice -n 5 "$1" CANARY`, "touch", "`set`"],
    [`printf %s ${V} | xargs -I{} {} CANARY`, "touch", "xargs"],
    [`printf %s ${V} | /usr/bin/xargs -I{} {} CANARY`, "touch", "xargs"],
    [`set -- ${V}; hash -p "$1" ls; ls CANARY`, "/usr/bin/touch", "`set`"],
    [`set -- ${V}; function f { eval "$1"; }; f "$1"`, "touch CANARY", "eval"],
    [`set -- ${V}; coproc c { eval "$1"; }; wait`, "touch CANARY", "eval"],
    [`mksh -T /dev/null -c ${V}`, "touch CANARY", "-c code"],
    // The shell drops a backslash-newline before reading anything: inside a word or after an
    // operator it joins what is around it, which the checks cannot follow.
    [`X= setsid\\\n ${V} CANARY`, "touch", "line continuation"],
    [`set\\\nsid ${V} CANARY`, "touch", "line continuation"],
    [`ev\\\nal ${V}`, "touch CANARY", "line continuation"],
    [`echo "$\\\n(printf %s ${V})"`, "x; touch CANARY", "line continuation"],
    [`echo $\\\n(printf %s ${V})`, "x; touch CANARY", "line continuation"],
    [`cat <\\\n<EOF\n${V}\nEOF`, "$(touch CANARY)", "line continuation"],
    // bash expands `{a,b}` and `{1..3}` into several words before it runs them.
    ["{eval,} " + V, "touch CANARY", "brace expansion"],
    [`set -- ${V}; {eval,} "$1"`, "touch CANARY", "`set`"],
    [`declare {-i,} x; set -- ${V}; x=$1`, SUBSCRIPT, "brace expansion"],
    // A glob pattern picks the program from the file system: `/bin/s[h]` is `/bin/sh`.
    [`/bin/s[h] -c ${V}`, "touch CANARY", "glob"],
    [`/usr/bin/e[n]v ${V} CANARY`, "touch", "glob"],
    [`printf '%s\\n' ${V} | /bin/[b]ash`, "touch CANARY", "glob"],
    [`printf '%s\\n' ${V} | env /bin/s[h]`, "touch CANARY", "glob"],
    [`printf '%s\\n' ${V} | bash /de?/stdin`, "touch CANARY", "standard input"],
    // bash reads `{name}>file` as a redirection that stores the descriptor in `name`: the
    // next word is the command.
    [`{fd}>/dev/null eval ${V}`, "touch CANARY", "eval"],
    [`{fd}</dev/null declare -i x; set -- ${V}; x=$1`, SUBSCRIPT, "`set`"],
    // bash reads `&>file` as a redirection of the running command; sh ends the command there
    // (in the background) and starts another one.
    [`declare &>/dev/null -i x=${V}`, SUBSCRIPT, "&>"],
    [`test &>/dev/null -v ${V}`, SUBSCRIPT, "&>"],
    // bash builtins that run a command, expand a word list or assign to a variable name.
    [`jobs -x ${V} CANARY`, "touch", "jobs"],
    [`compgen -W ${V}`, "$(touch CANARY)", "compgen"],
    [`set -- ${V}; compgen -W "$1"`, "$(touch CANARY)", "`set`"],
    [`set -- ${V}; sleep 0 & wait -n -p "$1"`, SUBSCRIPT, "`set`"],
    // find runs the program after -exec (and -execdir, -ok, -okdir) with the words up to `;`.
    [`find . -maxdepth 0 -exec ${V} CANARY ';'`, "touch", "find -exec"],
    [`find . -maxdepth 0 -execdir sh -c ${V} ';'`, "touch CANARY", "find -exec"],
    [`set -- ${V}; find . -maxdepth 0 -exec "$1" CANARY ';'`, "touch", "`set`"],
    // A value that is the output of a command substitution still lands where that sits.
    [`$(printf %s ${V}) CANARY`, "touch", "command name"],
    [`eval "$(printf %s ${V})"`, "touch CANARY", "eval"],
  ])("%s with %j", (template, value, why) => {
    const outcome = attempt(template, value, "bash");
    expect(outcome).not.toHaveProperty("canary", true);
    expect(HookError.is(outcome.refused, "TEMPLATE_ERROR")).toBe(true);
    const message = (outcome.refused as Error).message;
    expect(message).toContain(V);
    expect(message).toContain(why);
  });

  it.each([
    [`sh -c 'printf %s "$1"' _ ${V}`, "sh"],
    [`bash -e -o pipefail -c 'printf %s "$1"' _ ${V}`, "bash"],
    [`bash --norc -c 'printf %s "$1"' sh ${V}`, "bash"],
    [`"$A3S_TEST_DIR"/bin/tool; printf %s ${V}`, "sh"],
    [`x=1; printf %s ${V} "$x"`, "sh"],
    [`find . -maxdepth 0 -name pre${V} -print; printf %s ${V}`, "sh"],
    [`printf %s \\\n  ${V} \\\n`, "sh"],
  ])("%s stays accepted, and prints the value", (template, shell) => {
    const compiled = new CommandTemplate({ command: template });
    const value = `${SUBSCRIPT}'"; touch CANARY`;
    const { file, args } = compiled.render(event(value), { cwd: dir, shell, valueLimit: 16_384 });
    const result = spawnSync(file, args, { cwd: dir, encoding: "utf8", timeout: 10_000 });
    expect(result.stdout.startsWith(value)).toBe(true);
    expect(existsSync(canary)).toBe(false);
  });
});

describe("a value that becomes an option word or a variable name is refused, under sh and bash", () => {
  const A = "{{tool_args.a}}";
  const B = "{{tool_args.b}}";
  /** The check's decision, and whether running the template with these values made the canary. */
  const attemptArgs = (template: string, args: Record<string, string>, shell: string) => {
    let compiled: CommandTemplate;
    try {
      compiled = new CommandTemplate({ command: template });
    } catch (error) {
      return { refused: error };
    }
    const e = createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args });
    const { file, args: argv } = compiled.render(e, { cwd: dir, shell, valueLimit: 16_384 });
    spawnSync(file, argv, { cwd: dir, stdio: "ignore", timeout: 10_000 });
    return { ran: true, canary: existsSync(canary) };
  };
  const OPTION = "-v x[$(touch${IFS}CANARY)]";
  const SPLIT = { a: "-v", b: "x[$(touch${IFS}CANARY)]" };
  it.each([
    [`bash -c 'test $1' _ ${A}`, { a: OPTION }, "test"],
    [`bash -c 'printf "$1"' _ ${A}`, { a: OPTION }, "printf"],
    [`bash -c 'printf $1' _ ${A}`, { a: OPTION }, "printf"],
    [`sh -c 'test $1' _ ${A}`, { a: OPTION }, "test"],
    [`test ${A} ${B}`, SPLIT, "test"],
    [`[ ${A} ${B} ]`, SPLIT, "["],
    [`set -- ${A}; test $1`, { a: OPTION }, "set"],
    [`set -- ${A}; printf "$1" x`, { a: "-vx[$(touch${IFS}CANARY)]" }, "set"],
    [`for w in ${A}; do test $w; done`, { a: OPTION }, "for"],
    [`printf ${A} x`, { a: "-vx[$(touch${IFS}CANARY)]" }, "option"],
    [`printf -- ${A} x`, { a: "%s" }, "format of `printf`"],
    [`python3 -c ${A}`, { a: "import os; os.system('touch CANARY')" }, "python3"],
    [`perl -e ${A}`, { a: "system('touch CANARY')" }, "perl"],
    [`cd . && printf %s ${A} > v; x=$(cat v); test $x`, { a: OPTION }, "expansion"],
    [`mkdir -p d && cd ${A} && ./t`, { a: "d" }, "`cd`"],
    [`bash -c 'cd "$1" && ./t' _ ${A}`, { a: "d" }, "`cd`"],
  ] as const)("%s", (template, values, why) => {
    for (const shell of ["sh", "bash"]) {
      const outcome = attemptArgs(template, values, shell);
      expect(outcome).not.toHaveProperty("canary", true);
      expect(HookError.is(outcome.refused, "TEMPLATE_ERROR")).toBe(true);
      const message = (outcome.refused as Error).message;
      expect(message).toContain(why);
      // The refusal names what to use instead.
      expect(message).toMatch(/args/);
    }
  });

  it.each([
    [`printf '%s\\n' ${A} ${B}`, "sh"],
    [`echo ${A} ${B}`, "bash"],
    [`bash -c 'printf "%s\\n" "$1" "$2"' _ ${A} ${B}`, "bash"],
    [`git --version -- ${A} ${B}`, "sh"],
    [`ls ./${A} 2>/dev/null; printf %s ${B}`, "bash"],
    [`cd "$HOME" && printf %s ${A} ${B}`, "sh"],
  ])("%s stays accepted and runs nothing", (template, shell) => {
    expect(attemptArgs(template, SPLIT, shell)).toEqual({ ran: true, canary: false });
  });
});

describe("the exec form (args) is judged like the same words in a shell", () => {
  const V = "{{tool_args.command}}";
  const run = (args: [string, ...string[]], value: string) => {
    let compiled: CommandTemplate;
    try {
      compiled = new CommandTemplate({ args });
    } catch (error) {
      return { refused: error };
    }
    const { file, args: argv } = compiled.render(event(value), {
      cwd: dir,
      shell: "sh",
      valueLimit: 16_384,
    });
    const result = spawnSync(file, argv, { cwd: dir, encoding: "utf8", timeout: 10_000 });
    return { ran: true, canary: existsSync(canary), stdout: result.stdout };
  };

  it.each([
    [["env", V, "CANARY"], "touch", "env"],
    [["timeout", "5", V, "CANARY"], "touch", "timeout"],
    [["nice", "-n", "5", V, "CANARY"], "touch", "nice"],
    [["bash", "-o", "errexit", "-c", V], "touch CANARY", "-c code"],
    [["bash", "-c", 'eval "$1"', "_", V], "touch CANARY", "eval"],
    [["bash", "-c", "echo $(( $1 ))", "_", V], "a[$(touch CANARY)]", "arithmetic"],
  ] as [[string, ...string[]], string, string][])("%j with %j", (args, value, why) => {
    const outcome = run(args, value);
    expect(outcome).not.toHaveProperty("canary", true);
    expect(HookError.is(outcome.refused, "TEMPLATE_ERROR")).toBe(true);
    expect((outcome.refused as Error).message).toContain(V);
    expect((outcome.refused as Error).message).toContain(why);
  });

  it.each([
    [["printf", "%s", V]],
    [["printf", "%s", `$((1)) '${V}' \\`]],
    [["bash", "-c", 'printf %s "$1"', "_", V]],
    [["git", "--version", "--", `pre${V}`]],
  ] as [[string, ...string[]]][])("%j stays accepted", (args) => {
    expect(() => new CommandTemplate({ args })).not.toThrow();
  });

  it("passes the value as it is", () => {
    const value = `a[$(touch CANARY)]'"; touch CANARY`;
    const outcome = run(["bash", "-c", 'printf %s "$1"', "_", V], value);
    expect(outcome).toMatchObject({ canary: false, stdout: value });
  });
});

describe("whatever the load check accepts", () => {
  const lab = injectionLab();
  afterAll(() => lab.dispose());

  it("runs no hostile value through sh or bash (property)", () => {
    assertNoInjection(lab, 200);
  });
});
