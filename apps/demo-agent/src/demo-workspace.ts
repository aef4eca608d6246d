import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@a3s-lab/hooks-node/internal";
import { AgentError } from "./agent-error.js";

/** The folder, inside the working directory, that holds the scenario's own files. */
export const DEMO_DIR = ".a3s-demo";

/**
 * A command hook script (settings-file hook): after Write or Edit of a `.json` file, rewrite
 * it with two-space indentation. Reads Claude Code's stdin JSON, so it would run unchanged
 * under Claude Code too.
 */
const FORMAT_JSON = `// PostToolUse command hook: pretty-print JSON files after Write/Edit.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const event = JSON.parse(input);
const file = event.tool_input?.file_path;
if (typeof file !== "string" || !file.endsWith(".json")) process.exit(0);
const full = resolve(event.cwd ?? process.env.CLAUDE_PROJECT_DIR ?? ".", file);
const text = readFileSync(full, "utf8");
let pretty;
try {
  pretty = JSON.stringify(JSON.parse(text), null, 2) + "\\n";
} catch {
  process.stderr.write(\`\${file} is not valid JSON; left as it is\\n\`);
  process.exit(1);
}
if (pretty === text) process.exit(0);
writeFileSync(full, pretty);
console.log(JSON.stringify({
  hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: \`formatted \${file}\` },
}));
`;

/** The careful-shell skill's command hook: refuse sudo while the skill is loaded. */
const NO_SUDO = `// PreToolUse command hook: exit 2 (block) for sudo; stderr is the reason.
let input = "";
for await (const chunk of process.stdin) input += chunk;
const command = JSON.parse(input).tool_input?.command ?? "";
if (/(^|[\\s;&|(])sudo(\\s|$)/.test(command)) {
  process.stderr.write("sudo is not allowed while the careful-shell skill is loaded\\n");
  process.exit(2);
}
`;

/** The command that runs one of the workspace's hook scripts with this very Node. */
function nodeScript(script: string): string {
  return `${shellQuote(process.execPath)} "$CLAUDE_PROJECT_DIR"/${DEMO_DIR}/hooks/${script}`;
}

/** The settings file the demo writes: Claude Code's shape, one PostToolUse formatter. */
export function demoSettings(): object {
  return {
    hooks: {
      PostToolUse: [
        {
          matcher: "Write|Edit",
          hooks: [
            {
              type: "command",
              name: "format-json",
              command: nodeScript("format-json.mjs"),
              timeout: 30,
            },
          ],
        },
      ],
    },
  };
}

/** The careful-shell skill: instructions, and a PreToolUse hook in its frontmatter (seed 001). */
export function carefulShellSkill(): string {
  return `---
name: careful-shell
description: no sudo while this skill is loaded
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          name: no-sudo
          command: ${JSON.stringify(nodeScript("no-sudo.mjs"))}
          timeout: 30
---
Run shell commands as the current user only. Never use sudo.
`;
}

/** Where the demo keeps its files inside a working directory. */
export interface DemoWorkspace {
  dir: string;
  settingsFile: string;
  skillsDir: string;
}

/**
 * Fill a working directory with what the scenario needs, all under `.a3s-demo/`: the hook
 * scripts, a settings file (passed explicitly, so it needs no trust) and the careful-shell
 * skill. Refuses a folder that has other things in it: the scenario writes and edits files, and
 * must never touch a real project's.
 */
export async function prepareDemoWorkspace(dir: string): Promise<DemoWorkspace> {
  const entries = await readdir(dir);
  if (entries.some((name) => name !== DEMO_DIR) && !entries.includes(DEMO_DIR)) {
    throw new AgentError(
      "INVALID_INPUT",
      `--workdir: ${dir} is not empty; run plays in an empty folder (or one it used before)`,
      { path: ["workdir"] },
    );
  }
  const root = path.join(dir, DEMO_DIR);
  const hooksDir = path.join(root, "hooks");
  const skillsDir = path.join(root, "skills");
  const settingsFile = path.join(root, "settings.json");
  await mkdir(hooksDir, { recursive: true });
  await mkdir(skillsDir, { recursive: true });
  await writeFile(path.join(hooksDir, "format-json.mjs"), FORMAT_JSON);
  await writeFile(path.join(hooksDir, "no-sudo.mjs"), NO_SUDO);
  await writeFile(settingsFile, `${JSON.stringify(demoSettings(), null, 2)}\n`);
  await writeFile(path.join(skillsDir, "careful-shell.md"), carefulShellSkill());
  return { dir, settingsFile, skillsDir };
}
