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

/** The instructions a session reads at its start (InstructionsLoaded). */
const INSTRUCTIONS = `# Demo project

Work inside this folder only. Keep answers to one line.
`;

/**
 * A FileChanged command hook: what Claude Code users write to react to a watched file. Its
 * matcher names the files to watch; its answer is context for the model.
 */
const ENV_CHANGED = `echo '{"hookSpecificOutput":{"hookEventName":"FileChanged","additionalContext":"the .env file changed: its variables apply from the next command"}}'`;

/** A ConfigChange command hook: project settings may not change while the agent runs. */
const NO_PROJECT_SETTINGS_CHANGES = `echo "project settings changed during the run; review them and restart the agent" >&2; exit 2`;

/**
 * The settings file the demo writes, in Claude Code's shape: a PostToolUse formatter, a
 * FileChanged hook watching \`.env\`, and a ConfigChange hook refusing project settings changes.
 */
export function demoSettings(): object {
  return {
    hooks: {
      FileChanged: [
        {
          matcher: ".env",
          hooks: [{ type: "command", name: "env-changed", command: ENV_CHANGED, timeout: 30 }],
        },
      ],
      ConfigChange: [
        {
          matcher: "project_settings|local_settings",
          hooks: [
            {
              type: "command",
              name: "no-project-settings-changes",
              command: NO_PROJECT_SETTINGS_CHANGES,
              timeout: 30,
            },
          ],
        },
      ],
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

/** The careful-shell skill: instructions, and a PreToolUse hook in its frontmatter. */
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
 * Fill a working directory with what the scenario needs: under `.a3s-demo/` the hook scripts,
 * a settings file (passed explicitly, so it needs no trust) and the careful-shell skill, and
 * a CLAUDE.md for the session to read. Refuses a folder that has other things in it: the scenario writes and edits files, and
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
  await writeFile(path.join(dir, "CLAUDE.md"), INSTRUCTIONS);
  return { dir, settingsFile, skillsDir };
}
