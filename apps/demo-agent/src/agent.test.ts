import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  addContext,
  block,
  type HookEventName,
  modify,
  retry,
  validateEvent,
} from "@a3s-lab/hooks-core";
import { commandHookRegistration } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import { hookLimitsFromEnv } from "./agent-options.js";
import { type Firing, onFiring } from "./firings.js";
import type { Model, ModelRequest } from "./model.js";
import { SkillManager } from "./skill-manager.js";

let workdir: string;
beforeEach(async () => {
  workdir = await realpath(await mkdtemp(path.join(os.tmpdir(), "agent-")));
});
afterEach(async () => {
  await rm(workdir, { recursive: true, force: true });
});

function record(agent: Agent) {
  const fired: Firing[] = [];
  onFiring(agent.engine, (f) => fired.push(f));
  return {
    fired,
    names: () => fired.map((f) => f.event.eventType as HookEventName),
    of: (name: HookEventName) =>
      fired.filter((f) => f.event.eventType === name).map((f) => f.event),
  };
}

const allowAll = () => ({ defaultAnswer: "allow" }) as const;

describe("Agent", () => {
  it("fires the events of a response in order, each valid against core's schema", async () => {
    const agent = new Agent({ permission: allowAll() });
    const { fired, names } = record(agent);
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "write a.md: hi");
    await agent.endSession(session, "exit");
    expect(names()).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "GenerateStart",
      "GenerateEnd",
      "PreToolUse",
      "PermissionRequest",
      "Notification",
      "PermissionGranted",
      "PostToolUse",
      "GenerateStart",
      "GenerateEnd",
      "Stop",
      "SessionEnd",
    ]);
    for (const f of fired) expect(validateEvent(f.event).success, f.event.eventType).toBe(true);
    expect(reply).toMatchObject({
      text: "Done. Write: wrote 2 bytes to a.md",
      stopContinuations: 0,
    });
    expect(reply.usage.total_tokens).toBeGreaterThan(0);
    const ids = new Set(fired.map((f) => f.event.eventId));
    expect(ids.size).toBe(fired.length);
    const toolUseIds = fired
      .map((f) => (f.event as { toolUseId?: string }).toolUseId)
      .filter(Boolean);
    expect(new Set(toolUseIds).size).toBe(1);
  });

  it("lets a blocking Stop hook continue the response at most 8 times in a row", async () => {
    const agent = new Agent();
    const { of } = record(agent);
    agent.engine.register({ event: "Stop", handler: () => block("keep going") });
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "say: hello");
    expect(reply.stopContinuations).toBe(8);
    const stops = of("Stop") as { stopHookActive: boolean }[];
    expect(stops).toHaveLength(9);
    expect(stops.map((s) => s.stopHookActive)).toEqual([false, ...Array(8).fill(true)]);
    expect(of("Notification").at(-1)).toMatchObject({
      notificationType: "status",
      level: "warning",
    });
    expect(session.messages.filter((m) => m.content === "Stop hook: keep going")).toHaveLength(8);
    // The next response starts a fresh count.
    expect((await agent.respond(session, "say: again")).stopContinuations).toBe(8);
  });

  it("gives the SessionEnd hooks 1.5 s together, as Claude Code does, then stops them with a warning", async () => {
    expect(new Agent().sessionEndTimeoutMs).toBe(1500);
    // Generous enough for the quick hook on a loaded machine; the slow one sleeps far longer.
    const agent = new Agent({ sessionEndTimeoutMs: 2000 });
    const { of } = record(agent);
    const late = path.join(workdir, "late.txt");
    const early = path.join(workdir, "early.txt");
    // Real processes: one finishes in time, one is still sleeping when the budget runs out.
    agent.engine.register(
      commandHookRegistration(
        { event: "SessionEnd", command: `echo ok > "${early}"` },
        { projectDir: workdir },
      ),
    );
    agent.engine.register(
      commandHookRegistration(
        { event: "SessionEnd", command: `sleep 30; echo late > "${late}"`, timeout: 60 },
        { projectDir: workdir, killGraceMs: 100 },
      ),
    );
    const session = await agent.createSession({ workdir });
    await agent.endSession(session);
    expect(await readFile(early, "utf8")).toBe("ok\n");
    expect(of("Notification").at(-1)).toMatchObject({
      level: "warning",
      message: expect.stringContaining("SessionEnd hooks did not finish within 2000 ms"),
    });
    await expect(readFile(late, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a budget or a cap that is not a whole number, naming the option", () => {
    expect(() => new Agent({ sessionEndTimeoutMs: 0 })).toThrow(/sessionEndTimeoutMs/);
    expect(() => new Agent({ maxStopContinuations: -1 })).toThrow(/maxStopContinuations/);
  });

  it("reads Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP and CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", () => {
    expect(
      hookLimitsFromEnv({
        CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "3",
        CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "10000",
      }),
    ).toEqual({ maxStopContinuations: 3, sessionEndTimeoutMs: 10000 });
    expect(hookLimitsFromEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "" })).toEqual({});
    expect(() => hookLimitsFromEnv({ CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "1.5s" })).toThrow(
      /CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS/,
    );
  });

  it("stops at once when a UserPromptSubmit hook blocks, and uses a rewritten prompt", async () => {
    const agent = new Agent();
    const { names } = record(agent);
    agent.engine.register({
      event: "UserPromptSubmit",
      handler: (e) =>
        e.prompt.includes("forbidden") ? block("no") : modify({ prompt: "say: rewritten" }),
    });
    const session = await agent.createSession({ workdir });
    expect(await agent.respond(session, "forbidden")).toMatchObject({ text: "", blocked: "no" });
    expect(names()).toEqual(["SessionStart", "UserPromptSubmit"]);
    expect((await agent.respond(session, "say: original")).text).toBe("rewritten");
  });

  it("GenerateStart can block a generation; GenerateEnd can rewrite the text", async () => {
    const agent = new Agent();
    const { of } = record(agent);
    const gate = agent.engine.register({
      event: "GenerateStart",
      handler: () => block("model offline"),
    });
    const session = await agent.createSession({ workdir });
    expect(await agent.respond(session, "say: hi")).toMatchObject({ blocked: "model offline" });
    expect(of("GenerateEnd")).toHaveLength(0);
    expect(of("Notification")[0]).toMatchObject({ notificationType: "error" });
    expect(of("Stop")[0]).toMatchObject({ reason: "model offline" });
    gate.unregister();
    agent.engine.register({
      event: "GenerateEnd",
      handler: () => modify({ response: { text: "polished" } }),
    });
    expect((await agent.respond(session, "say: rough")).text).toBe("polished");
  });

  it("GenerateStart can rewrite the prompt and narrow the tools for one call", async () => {
    const seen: ModelRequest[] = [];
    const model: Model = {
      config: { name: "probe" },
      async generate(request) {
        seen.push(request);
        return {
          text: "ok",
          toolCalls: [],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
      },
    };
    const agent = new Agent({ model });
    agent.engine.register({
      event: "GenerateStart",
      handler: () => modify({ prompt: "rewritten", systemPrompt: "be brief", tools: ["Read"] }),
    });
    const session = await agent.createSession({ workdir });
    await agent.respond(session, "original");
    expect(seen[0]?.systemPrompt).toBe("be brief");
    expect(seen[0]?.tools.map((t) => t.name)).toEqual(["Read"]);
    expect(seen[0]?.messages.at(-1)).toEqual({ role: "user", content: "rewritten" });
    // The history keeps what the user typed.
    expect(session.messages.find((m) => m.role === "user")?.content).toBe("original");
  });

  it("SessionStart can refuse a session or add context and metadata", async () => {
    const agent = new Agent();
    const gate = agent.engine.register({
      event: "SessionStart",
      handler: () => block("maintenance"),
    });
    await expect(agent.createSession({ workdir })).rejects.toMatchObject({ code: "BLOCKED" });
    expect(agent.sessions).toHaveLength(0);
    gate.unregister();
    agent.engine.register({
      event: "SessionStart",
      handler: () => ({
        action: "continue",
        modified: { metadata: { team: "a3s" } },
        additionalContext: "use tabs",
      }),
    });
    const session = await agent.createSession({ workdir, id: "fixed" });
    expect(session.metadata).toEqual({ team: "a3s" });
    expect(session.messages[0]).toEqual({ role: "system", content: "use tabs" });
    await expect(agent.createSession({ workdir, id: "fixed" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(agent.getSession("fixed")).toBe(session);
    await agent.endSession(session);
    expect(() => agent.getSession("fixed")).toThrow(/no session/);
  });

  it("runs a subagent between SubagentStart and SubagentStop, its events tagged, without Task", async () => {
    const agent = new Agent();
    const { fired, of } = record(agent);
    await writeFile(path.join(workdir, "a.md"), "needle\n");
    agent.engine.register({
      event: "SubagentStart",
      handler: () => modify({ description: "find the needle" }),
    });
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "task: grep needle");
    const start = fired.findIndex((f) => f.event.eventType === "SubagentStart");
    const stop = fired.findIndex((f) => f.event.eventType === "SubagentStop");
    const inside = fired.slice(start + 1, stop);
    expect(inside.map((f) => f.event.eventType)).toEqual([
      "GenerateStart",
      "GenerateEnd",
      "PreToolUse",
      "PostToolUse",
      "GenerateStart",
      "GenerateEnd",
    ]);
    for (const f of inside) expect(f.event.metadata).toEqual({ subagentId: "subagent-1" });
    const first = inside[0]!.event as { tools: string[]; messages: { content: string }[] };
    expect(first.tools).not.toContain("Task");
    expect(first.messages[0]?.content).toContain("find the needle");
    expect(of("SubagentStop")[0]).toMatchObject({
      success: true,
      output: "Done. Grep: a.md:1: needle",
    });
    expect(reply.text).toContain("Task: Done. Grep: a.md:1: needle");
  });

  it("a refused subagent is a failed Task call", async () => {
    const agent = new Agent();
    const { of } = record(agent);
    agent.engine.register({ event: "SubagentStart", handler: () => block("no helpers today") });
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "task: bash: ls");
    expect(of("SubagentStop")).toHaveLength(0);
    expect(of("PostToolUseFailure")[0]).toMatchObject({ tool: "Task" });
    expect(reply.text).toContain("subagent refused by a hook: no helpers today");
  });

  it("warns at the budget line, then compacts: PreCompact, PostCompact; a hook may refuse", async () => {
    const agent = new Agent({ budget: { maxTokens: 200, warnAt: 0.3, compactAt: 0.6 } });
    const { of, names } = record(agent);
    const session = await agent.createSession({ workdir });
    await agent.respond(session, `say: ${"x".repeat(300)}`);
    await agent.respond(session, "say: short");
    expect(of("ContextWarning")[0]).toMatchObject({
      trigger: "threshold",
      maxTokens: 200,
      threshold: 0.3,
    });
    const order = names().filter((n) =>
      ["ContextWarning", "PreCompact", "PostCompact"].includes(n),
    );
    expect(order.slice(0, 3)).toEqual(["ContextWarning", "PreCompact", "PostCompact"]);
    const post = of("PostCompact")[0] as {
      messagesAfter: number;
      messagesBefore: number;
      tokensAfter: number;
      tokensBefore: number;
    };
    expect(post.messagesAfter).toBeLessThan(post.messagesBefore);
    expect(post.tokensAfter).toBeLessThan(post.tokensBefore);
    expect(session.compactions).toBeGreaterThan(0);

    agent.engine.register({ event: "PreCompact", handler: () => block("keep everything") });
    await agent.respond(session, "say: more");
    expect(await agent.compact(session, "manual")).toBeUndefined();
    expect(of("Notification").at(-1)).toMatchObject({
      message: "compaction refused by a hook: keep everything",
    });
  });

  it("honours a PreToolUse retry, then runs the tool", async () => {
    const agent = new Agent();
    const { of } = record(agent);
    let asked = 0;
    agent.engine.register({
      event: "PreToolUse",
      handler: () => (asked++ === 0 ? retry(0) : undefined),
    });
    const session = await agent.createSession({ workdir });
    await agent.respond(session, "glob *");
    expect(of("PreToolUse")).toHaveLength(2);
    expect(of("PostToolUse")).toHaveLength(1);
  });

  it("tells the model about unknown tools and invalid arguments without firing tool events", async () => {
    let step = 0;
    const model: Model = {
      config: { name: "sloppy" },
      async generate() {
        step++;
        const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
        if (step === 1)
          return { text: "", toolCalls: [{ id: "a", name: "Teleport", args: {} }], usage };
        if (step === 2)
          return {
            text: "",
            toolCalls: [{ id: "b", name: "Read", args: { file_path: 7 } }],
            usage,
          };
        return { text: "gave up", toolCalls: [], usage };
      },
    };
    const agent = new Agent({ model });
    const { of } = record(agent);
    const session = await agent.createSession({ workdir });
    await agent.respond(session, "anything");
    expect(of("PreToolUse")).toHaveLength(0);
    const results = session.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(results[0]).toMatch(/unknown tool "Teleport"/);
    expect(results[1]).toMatch(/args\.file_path/);
  });

  it("answers one prompt at a time per session, and refuses ended sessions", async () => {
    const agent = new Agent({ permission: allowAll() });
    const session = await agent.createSession({ workdir });
    const first = agent.respond(session, "bash: sleep 0.2");
    await expect(agent.respond(session, "say: hi")).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await first;
    await agent.endSession(session);
    await expect(agent.respond(session, "say: hi")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(agent.respond(session, 42 as never)).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  it("cancels a response through its signal", async () => {
    const agent = new Agent({ permission: allowAll() });
    const session = await agent.createSession({ workdir });
    const controller = new AbortController();
    const running = agent.respond(session, "bash: sleep 20\nbash: echo never", {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(running).rejects.toMatchObject({ code: "ABORTED" });
    expect(session.busy).toBe(false);
  });

  it("executeTool runs one tool through the same hooks", async () => {
    const agent = new Agent({ permission: allowAll() });
    const { names } = record(agent);
    agent.engine.register({
      event: "PreToolUse",
      matcher: "Bash",
      handler: () => addContext("checked"),
    });
    const session = await agent.createSession({ workdir });
    const outcome = await agent.executeTool(session, "Bash", { command: "echo hi" });
    expect(outcome).toMatchObject({
      status: "ok",
      output: "hi\n\n[hook context] checked",
      exitCode: 0,
    });
    expect(names().slice(1)).toEqual([
      "PreToolUse",
      "PermissionRequest",
      "Notification",
      "PermissionGranted",
      "PostToolUse",
    ]);
    expect((await agent.executeTool(session, "Bash", { command: "exit 4" })).status).toBe("failed");
  });

  it("loads skills for one response: SkillLoad, their hooks, then SkillUnload removes them", async () => {
    const skillsDir = path.join(workdir, "skills");
    await mkdir(skillsDir);
    await writeFile(
      path.join(skillsDir, "quiet.md"),
      "---\ndescription: no echo\nhooks:\n  PreToolUse: []\n---\nNever echo.\n",
    );
    await writeFile(path.join(skillsDir, "banned.md"), "---\nname: banned\n---\nx\n");
    const agent = new Agent({
      permission: allowAll(),
      skills: new SkillManager({
        dirs: [skillsDir],
        // A stand-in for the Node package's frontmatter loader: one in-process hook per skill.
        installHooks: (skill, engine) =>
          engine.register({
            event: "PreToolUse",
            matcher: "Bash",
            source: `skill:${skill.name}`,
            handler: () => block(`${skill.name} forbids Bash`),
          }),
      }),
    });
    const { of } = record(agent);
    agent.engine.register({
      event: "SkillLoad",
      matcher: "banned",
      handler: () => block("not allowed"),
    });
    const session = await agent.createSession({ workdir });
    const reply = await agent.respond(session, "skill: quiet\nbash: echo hi");
    expect(reply.text).toContain("Bash: Blocked by a hook: quiet forbids Bash");
    expect(of("SkillLoad")[0]).toMatchObject({ skillName: "quiet", description: "no echo" });
    expect(of("SkillUnload")[0]).toMatchObject({ skillName: "quiet" });
    expect(agent.engine.list({ source: "skill:quiet" })).toEqual([]);
    expect((await agent.respond(session, "bash: echo hi")).text).toBe("Done. Bash: hi");
    await agent.respond(session, "skill: banned\nskill: missing");
    const results = session.messages.filter((m) => m.role === "tool").slice(-2);
    expect(results[0]?.content).toBe("Error: skill banned was refused by a hook: not allowed");
    expect(results[1]?.content).toMatch(/^Error: skill "missing" not found in /);
    expect(of("SkillUnload")).toHaveLength(1);
  });
});
