import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { trustProject } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DemoAgent, setupDemoAgent } from "./demo-agent-setup.js";
import { nodeHookSources } from "./node-hook-sources.js";

let dir: string;
let workdir: string;
let home: string;
let marker: string;
let demo: DemoAgent | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "hook-sources-")));
  workdir = path.join(dir, "project");
  home = path.join(dir, "home");
  marker = path.join(dir, "ran.txt");
  await mkdir(path.join(workdir, ".a3s", "skills"), { recursive: true });
  await mkdir(home);
});
afterEach(async () => {
  demo?.close();
  demo = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A skill whose PreToolUse hook on Bash appends a line to the marker file. */
function markingSkill(prefix = ""): string {
  return `${prefix}---\nname: careful\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          name: mark\n          command: echo ran >> '${marker}'\n---\nBe careful.\n`;
}

/** Load the skill and run a Bash command through the agent, as `chat` and `serve` do. */
async function loadAndRun(trustProjectSkills?: boolean, at = workdir) {
  demo = await setupDemoAgent({
    workdir: at,
    home,
    demoHooks: false,
    permission: { defaultAnswer: "allow" },
    hookSources: nodeHookSources(trustProjectSkills === undefined ? {} : { trustProjectSkills }),
  });
  const session = await demo.agent.createSession({ workdir: at });
  const reply = await demo.agent.respond(session, "skill: careful\nbash: echo hi");
  const loaded = session.messages.find(
    (m) => m.role === "tool" && m.content.startsWith("Skill careful loaded"),
  );
  return { reply, loaded: loaded?.content ?? "" };
}

const ran = () => readFile(marker, "utf8").catch(() => "");

describe("nodeHookSources: hooks in the project's skill files", () => {
  it("refuses them without trustProjectSkills, and says why in the skill's notes", async () => {
    // A cloned repository: a skill with a command hook and no settings file, which the
    // settings trust counts as trusted.
    await writeFile(path.join(workdir, ".a3s", "skills", "careful.md"), markingSkill());
    const { reply, loaded } = await loadAndRun();
    expect(reply.text).toMatch(/Bash: hi$/);
    expect(await ran()).toBe("");
    expect(loaded).toContain("its PreToolUse hook mark does not run:");
    expect(loaded).toContain("covers its settings files, not its skill files");
  });

  it("refuses them in a trusted project too: a skill added after trusting changes no hash", async () => {
    await mkdir(path.join(workdir, ".claude"));
    await writeFile(
      path.join(workdir, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    await trustProject({ cwd: workdir, home });
    await writeFile(path.join(workdir, ".a3s", "skills", "careful.md"), markingSkill());
    const { loaded } = await loadAndRun(false);
    expect(await ran()).toBe("");
    expect(loaded).toContain("its PreToolUse hook mark does not run:");
  });

  it("refuses them when the working directory is reached through a symlink", async () => {
    await writeFile(path.join(workdir, ".a3s", "skills", "careful.md"), markingSkill());
    const alias = path.join(dir, "alias");
    await symlink(workdir, alias);
    const { loaded } = await loadAndRun(undefined, alias);
    expect(await ran()).toBe("");
    expect(loaded).toContain("does not run:");
  });

  it("runs them with trustProjectSkills (the run command, which wrote its own skills)", async () => {
    await writeFile(path.join(workdir, ".a3s", "skills", "careful.md"), markingSkill());
    const { reply, loaded } = await loadAndRun(true);
    expect(reply.text).toMatch(/Bash: hi$/);
    expect(await ran()).toBe("ran\n");
    expect(loaded).not.toContain("does not run");
  });

  it("installs the hooks of a skill file that starts with a BOM", async () => {
    await writeFile(path.join(workdir, ".a3s", "skills", "careful.md"), markingSkill("\uFEFF"));
    const { loaded } = await loadAndRun(true);
    expect(await ran()).toBe("ran\n");
    expect(loaded).toContain("Be careful.");
    expect(loaded).not.toContain("hooks:");
  });
});

describe("nodeHookSources: prompt hooks ask the agent's own model", () => {
  /** A settings file (explicit, so trusted) with one prompt hook on Bash. */
  async function withPromptHook(prompt: string) {
    const file = path.join(dir, "prompt-settings.json");
    await writeFile(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", prompt }] }] },
      }),
    );
    demo = await setupDemoAgent({
      workdir,
      home,
      demoHooks: false,
      settingsFiles: [file],
      permission: { defaultAnswer: "allow" },
      hookSources: nodeHookSources(),
    });
    expect(demo.messages).toEqual([]);
    const session = await demo.agent.createSession({ workdir });
    return demo.agent.respond(session, "bash: echo hi");
  }

  it("under the scripted model, a check passes and the command runs, offline", async () => {
    const reply = await withPromptHook("Is this command safe? $ARGUMENTS");
    expect(reply.text).toMatch(/Bash: hi$/);
  });

  it("under the scripted model, a say: verdict in the prompt blocks with its reason", async () => {
    const reply = await withPromptHook(
      'say: {"ok": false, "reason": "no shell in this demo"}\n$ARGUMENTS',
    );
    expect(reply.text).toContain("no shell in this demo");
  });
});
