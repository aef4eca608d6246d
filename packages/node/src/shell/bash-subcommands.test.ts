import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { createEvent } from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePermissionRule } from "../settings/permission-rule.js";
import { bashSubcommands, splitBashCommand } from "./bash-subcommands.js";

const ctx = { projectDir: "/work/project", home: "/home/me" };
const judge = (rule: string, command: string) =>
  compilePermissionRule(
    rule,
    ctx,
  )(createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } }));

/** Single-quotes a shell word. */
const q = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

describe("bashSubcommands: code it did not read makes it unsure", () => {
  it("runs the guard for the commands that deleted or pushed while judged not matching", () => {
    const rm = ["Bash(rm *)", "Bash(rm:*)"];
    for (const command of [
      "echo 'rm -rf x' | sh",
      "printf 'rm -rf x\\n' | bash",
      "sh <<< 'rm -rf x'",
      "bash -s <<< 'rm -rf x'",
      "trap 'rm -rf x' EXIT",
      "find . -maxdepth 0 -exec rm -rf x ';'",
      "find . -execdir rm {} +",
      "find . -ok rm {} ';'",
      "echo x | xargs rm",
      "env A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 rm -rf x",
      "nice nice nice nice nice nice nice nice nice rm -rf x",
      "command -p -- env -- nice -n 1 -- timeout 9 rm -rf x",
      "f() { rm -rf x; }; f",
      "function f { rm -rf x; }; f",
      "f() ( rm -rf x ); f",
      ". <(echo 'rm -rf x')",
      "source <(echo 'rm -rf x')",
      "git -c alias.x='!rm -rf x' x",
      "python3 -c 'import os; os.system(\"rm -rf x\")'",
      'node -e \'require("child_process").execSync("rm -rf x")\'',
      "perl -e 'system(\"rm -rf x\")'",
      "ruby -e 'system(\"rm -rf x\")'",
      "eval 'rm -rf x'",
      "GIT_PAGER='rm -rf x' git log",
      "PS4='$(rm -rf x)' bash -xc :",
      "x='a[$(rm -rf x)]'; (( x ))",
      "let 'a[$(rm -rf x)]'",
      "test -v 'a[$(rm -rf x)]'",
      "printf -v 'a[$(rm -rf x)]' %s 1",
      "declare -i n='a[$(rm -rf x)]'",
      "echo $(( a[$(rm -rf x)] ))",
      "read 'a[$(rm -rf x)]' <<< 1",
      "alias ls='rm -rf x'",
      "hash -p /bin/rm ls; ls x",
      "echo 'rm -rf x' | sudo -s",
      "coproc C { rm -rf x; }",
    ]) {
      for (const r of rm) expect(judge(r, command), `${r} ${command}`).toBe(true);
    }
    for (const command of [
      "git -C . push",
      "git -c k=v push",
      "git --no-pager push",
      "git -c alias.p=push p",
      "echo 'git push' | sh",
      "nice -n 1 nice -n 2 nice nice nice nice nice nice nice git push",
      "git $(echo push)",
      "SUB=push; git $SUB",
      "git pu*",
      "python3 -c 'import os; os.system(\"git push\")'",
    ]) {
      expect(judge("Bash(git push:*)", command), command).toBe(true);
    }
  });

  it("still tells apart the commands it reads in full", () => {
    const push = (command: string) => judge("Bash(git push:*)", command);
    expect(push("git status && git log --oneline | head")).toBe(false);
    expect(push("ls -la; echo done")).toBe(false);
    expect(push("bash -c 'git status'")).toBe(false);
    expect(push("bash -c 'git push'")).toBe(true);
    expect(push("timeout 5 git push")).toBe(true);
    expect(push("sudo -u me git status")).toBe(false);
    expect(push("echo $HOME")).toBe(false);
    expect(push("FOO=$(date); git status")).toBe(false);
    expect(splitBashCommand("git $SUB x")).toEqual({ texts: [], open: ["git"] });
    expect(bashSubcommands("f() { :; }")).toBeUndefined();
  });
});

/**
 * Commands built from the constructs that run code the splitter does not read, wrapped around a
 * payload that runs the program a rule names.
 */
const rmPayload = fc.constantFrom("rm x", "rm -f x", "rm -rf x y");
const gitPayload = fc.constantFrom(
  "git push",
  "git push origin",
  "git -C . push",
  "git -c k=v push",
  "git --no-pager push",
  "git --git-dir=.git push",
);

/** Wrappers around one simple command. */
const simpleWrapper = fc.constantFrom<(p: string) => string>(
  (p) => p,
  (p) => `find . -maxdepth 0 -exec ${p} ';'`,
  (p) => `echo | xargs ${p}`,
  (p) => `env A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 ${p}`,
  (p) => `${"nice ".repeat(9)}${p}`,
  (p) => `command -p -- env -- nice -n 1 -- timeout 9 ${p}`,
  (p) => `timeout 9 ${p}`,
  (p) => `exec ${p}`,
  (p) => `X=1 ${p}`,
);

/** Wrappers around any command text. */
const wrapper = fc.constantFrom<(p: string) => string>(
  (p) => p,
  (p) => `echo ${q(p)} | sh`,
  (p) => `printf '%s\\n' ${q(p)} | bash`,
  (p) => `sh <<< ${q(p)}`,
  (p) => `echo ${q(p)} | sh -s`,
  (p) => `bash -c ${q(p)}`,
  (p) => `sh -ec ${q(p)} _ a`,
  (p) => `trap ${q(p)} EXIT`,
  (p) => `eval ${q(p)}`,
  (p) => `f() { ${p}; }; f`,
  (p) => `function f { ${p}; }; f`,
  (p) => `. <(echo ${q(p)})`,
  (p) => `source /dev/stdin <<< ${q(p)}`,
  (p) => `git -c alias.x=${q(`!${p}`)} x`,
  (p) => `python3 -c ${q(`import os; os.system(${JSON.stringify(p)})`)}`,
  (p) => `node -e ${q(`require("child_process").execSync(${JSON.stringify(p)})`)}`,
  (p) => `perl -e ${q(`system(${JSON.stringify(p)})`)}`,
  (p) => `true && { ${p}; }`,
  (p) => `echo $(${p})`,
  (p) => `(${p})`,
);

const constructed = (payload: fc.Arbitrary<string>) =>
  fc
    .tuple(payload, simpleWrapper, fc.array(wrapper, { minLength: 1, maxLength: 2 }))
    .map(([p, simple, outer]) => outer.reduce((inner, wrap) => wrap(inner), simple(p)));

describe("bashSubcommands under real dash and bash", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "a3s-split-"));
    // Stand-ins for rm and git, each alone in its folder: rm marks that it ran; git marks when it
    // was asked to push. The rm runs keep the real git (its aliases run the stand-in rm).
    for (const [program, script] of [
      ["rm", `: > '${join(dir, "RAN-rm")}'`],
      ["git", `for a in "$@"; do [ "$a" = push ] && : > '${join(dir, "RAN-git")}'; done; exit 0`],
    ] as const) {
      mkdirSync(join(dir, program));
      writeFileSync(join(dir, program, program), `#!/bin/sh\n${script}\n`);
      chmodSync(join(dir, program, program), 0o755);
    }
    mkdirSync(join(dir, "work"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Whether running `command` under `shell` ran the stand-in `program`. */
  const ran = (command: string, shell: string, program: "rm" | "git") => {
    const marker = join(dir, `RAN-${program}`);
    rmSync(marker, { force: true });
    // The system folders only: interpreters start fast there (no version-manager shims).
    const PATH = [join(dir, program), "/usr/local/bin", "/usr/bin", "/bin"].join(delimiter);
    spawnSync(shell, ["-c", command], {
      cwd: join(dir, "work"),
      env: { PATH, HOME: dir },
      stdio: "ignore",
      timeout: 10_000,
    });
    return existsSync(marker);
  };

  const property = (rule: string, payload: fc.Arbitrary<string>, program: "rm" | "git") =>
    fc.assert(
      fc.property(constructed(payload), (command) => {
        const judged = judge(rule, command);
        for (const shell of ["dash", "bash"]) {
          if (ran(command, shell, program)) {
            expect({ command, shell, judged }).toEqual({ command, shell, judged: true });
          }
        }
      }),
      { numRuns: 15 },
    );

  it("never judges Bash(rm:*) not matching when rm ran", () => {
    property("Bash(rm:*)", rmPayload, "rm");
  }, 60_000);

  it("never judges Bash(git push:*) not matching when git pushed", () => {
    property("Bash(git push:*)", gitPayload, "git");
  }, 60_000);
});
