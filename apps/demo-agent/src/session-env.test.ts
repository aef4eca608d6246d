import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HookEngine } from "@a3s-lab/hooks-core";
import { applyHookSettings, loadHookSettings, SessionEnvFiles } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import type { SessionEnv } from "./agent-options.js";

let root: string;
let envFiles: SessionEnvFiles;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "a3s-demo-env-")));
  envFiles = new SessionEnvFiles({ dir: root, maxBytes: 4096 });
});
afterEach(async () => {
  await envFiles[Symbol.asyncDispose]();
  rmSync(root, { recursive: true, force: true });
});

const sessionEnv = (): SessionEnv => ({
  create: (id) => envFiles.create(id),
  read: (id) => envFiles.read(id),
  seal: (id) => envFiles.seal(id),
  remove: (id) => envFiles.remove(id),
  close: () => envFiles[Symbol.asyncDispose](),
});

/** An agent whose settings give SessionStart one command hook, and whose Bash results are kept. */
async function agentWith(sessionStartCommand: string) {
  const file = path.join(root, "settings.json");
  writeFileSync(
    file,
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: sessionStartCommand }] }] },
    }),
  );
  const settings = await loadHookSettings({
    cwd: root,
    home: root,
    files: [file],
    defaults: false,
  });
  expect(settings.problems).toEqual([]);
  const engine = new HookEngine();
  applyHookSettings(engine, settings, { projectDir: root, envFile: envFiles.pathFor });
  const outputs: unknown[] = [];
  engine.register({
    event: "PostToolUse",
    handler: (e) => void outputs.push(e.result),
  });
  engine.register({
    event: "PostToolUseFailure",
    handler: (e) => void outputs.push(e.error),
  });
  const agent = new Agent({
    engine,
    permission: { defaultAnswer: "allow" },
    sessionEnv: sessionEnv(),
  });
  return { agent, outputs };
}

describe("CLAUDE_ENV_FILE in the demo agent", () => {
  it("a SessionStart hook's export reaches a later Bash call, and is gone at session end", async () => {
    const { agent, outputs } = await agentWith(`echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"`);
    const session = await agent.createSession({ workdir: root });
    const file = envFiles.pathFor({ eventType: "SessionStart", sessionId: session.id } as never)!;
    await agent.respond(session, 'bash: echo "FOO is [$FOO]"');
    expect(JSON.stringify(outputs)).toContain("FOO is [bar]");
    await agent.endSession(session);
    expect(() => realpathSync(path.dirname(file))).toThrow();
  });

  it("refuses a hostile env file: the Bash call fails and nothing of it runs", async () => {
    const marker = path.join(root, "ran");
    const secret = path.join(root, "secret.sh");
    writeFileSync(secret, `touch '${marker}'\n`);
    for (const plant of [
      `ln -sf '${secret}' "$CLAUDE_ENV_FILE"`,
      `rm "$CLAUDE_ENV_FILE"; mkfifo "$CLAUDE_ENV_FILE"`,
      `head -c 5000 /dev/zero | tr '\\0' x > "$CLAUDE_ENV_FILE"`,
    ]) {
      const { agent, outputs } = await agentWith(plant);
      const session = await agent.createSession({ workdir: root });
      await agent.respond(session, "bash: echo ran-anyway");
      const seen = JSON.stringify(outputs);
      expect(seen, plant).toMatch(/CLAUDE_ENV_FILE .*not applied/);
      expect(seen, plant).not.toContain("ran-anyway");
      await agent.endSession(session);
    }
    expect(() => realpathSync(marker)).toThrow();
  });

  it("a Bash call that writes the env file makes later Bash calls fail, running nothing of it", async () => {
    const marker = path.join(root, "appended-ran");
    const { agent, outputs } = await agentWith(`echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"`);
    const session = await agent.createSession({ workdir: root });
    const file = envFiles.pathFor({ eventType: "SessionStart", sessionId: session.id } as never)!;
    await agent.respond(session, `bash: echo "touch '${marker}'" >> '${file}'`);
    await agent.respond(session, "bash: echo later-ran");
    const seen = JSON.stringify(outputs);
    expect(seen).toMatch(/CLAUDE_ENV_FILE .*changed after the hooks given it finished/);
    expect(seen).not.toContain("later-ran");
    expect(() => realpathSync(marker)).toThrow();
    await agent.endSession(session);
  });

  it("a cd that fires CwdChanged with no hooks does not seal what the agent's Bash appended", async () => {
    const marker = path.join(root, "injected-ran");
    mkdirSync(path.join(root, "sub"));
    const { agent, outputs } = await agentWith(`echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"`);
    const session = await agent.createSession({ workdir: root });
    const file = await envFiles.create(session.id);
    await agent.respond(session, `bash: echo "touch '${marker}'" >> '${file}'`);
    await agent.respond(session, "bash: cd sub");
    await agent.respond(session, "bash: echo later-ran");
    const seen = JSON.stringify(outputs);
    expect(seen).toMatch(/CLAUDE_ENV_FILE .*changed after the hooks given it finished/);
    expect(seen).not.toContain("later-ran");
    expect(() => realpathSync(marker)).toThrow();
    await agent.endSession(session);
  });

  it("a session never reads another session's env file", async () => {
    const { agent, outputs } = await agentWith(
      `echo "export WHO=$A3S_SESSION_ID" >> "$CLAUDE_ENV_FILE"`,
    );
    const a = await agent.createSession({ workdir: root, id: "a" });
    const b = await agent.createSession({ workdir: root, id: "b" });
    await agent.respond(b, 'bash: echo "who=[$WHO]"');
    expect(JSON.stringify(outputs)).toContain("who=[b]");
    await agent.endSession(a);
    await agent.endSession(b);
  });
});
