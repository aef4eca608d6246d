import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";

/** What a case's hook answers: its exit code, and what it prints on stdout and stderr. */
export interface HookAnswer {
  exit: number;
  stdout?: string;
  stderr?: string;
}

/** The languages the suite writes each case's hook in. */
export type ScriptLanguage = "bash" | "python" | "node";
/** A hook run by the path of its script file, or written inline in the settings' command. */
export type ScriptMode = "path" | "inline";

/** One way of writing a case's hook. */
export interface ScriptVariant {
  language: ScriptLanguage;
  mode: ScriptMode;
}

/** Every language, each by path and inline. */
export const SCRIPT_VARIANTS: readonly ScriptVariant[] = (
  ["bash", "python", "node"] as const
).flatMap((language) => (["path", "inline"] as const).map((mode) => ({ language, mode })));

const PYTHON = "/usr/bin/python3";

/** One shell word holding `text` exactly. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The script's body: read all of stdin, print the answer, exit with its code. */
function body(answer: HookAnswer, language: ScriptLanguage): string {
  const out = answer.stdout ?? "";
  const err = answer.stderr ?? "";
  switch (language) {
    case "bash":
      return [
        "cat > /dev/null",
        `printf '%s' ${quote(out)}`,
        `printf '%s' ${quote(err)} >&2`,
        `exit ${answer.exit}`,
      ].join("\n");
    case "python":
      // A JSON string is a Python string literal too.
      return [
        "import sys",
        "sys.stdin.read()",
        `sys.stdout.write(${JSON.stringify(out)})`,
        `sys.stderr.write(${JSON.stringify(err)})`,
        `sys.exit(${answer.exit})`,
      ].join("\n");
    case "node":
      return [
        "process.stdin.resume();",
        'process.stdin.on("end", () => {',
        `  process.stdout.write(${JSON.stringify(out)});`,
        `  process.stderr.write(${JSON.stringify(err)});`,
        `  process.exitCode = ${answer.exit};`,
        "});",
      ].join("\n");
  }
}

const SHEBANG: Record<ScriptLanguage, string> = {
  bash: "#!/usr/bin/env bash",
  python: `#!${PYTHON}`,
  node: "#!/usr/bin/env node",
};

/**
 * The settings `command` for a case's hook in one variant: the path of a script written into
 * `dir` (executable, with its shebang), or the whole program inline (`python3 -c`, `node -e`,
 * or the bash lines themselves).
 */
export async function hookCommand(
  answer: HookAnswer,
  variant: ScriptVariant,
  dir: string,
  name: string,
): Promise<string> {
  const code = body(answer, variant.language);
  if (variant.mode === "path") {
    const ext = { bash: "sh", python: "py", node: "js" }[variant.language];
    const file = path.join(dir, `${name}.${ext}`);
    await writeFile(file, `${SHEBANG[variant.language]}\n${code}\n`);
    await chmod(file, 0o755);
    return quote(file);
  }
  switch (variant.language) {
    case "bash":
      return code;
    case "python":
      return `${PYTHON} -c ${quote(code)}`;
    case "node":
      return `node -e ${quote(code)}`;
  }
}
