import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DemoAgent, setupDemoAgent } from "./demo-agent-setup.js";
import { onFiring } from "./firings.js";
import type { Model } from "./model.js";
import { nodeHookSources } from "./node-hook-sources.js";
import type { ParkCall, ParkedContext } from "./parked-call.js";
import { readParkedContext } from "./parked-call.js";

// The agent's side of parking, in process (the store and the CLI have their own process tests
// in test/approvals.e2e.test.ts): what is saved, and how a resumed call goes through the hooks.
let dir: string;
const demos: DemoAgent[] = [];
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "parked-call-")));
  await mkdir(path.join(dir, "home"));
});
afterEach(async () => {
  for (const demo of demos.splice(0)) demo.close();
  await rm(dir, { recursive: true, force: true });
});

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** Asks for two Bash calls in its first step, then answers with what it read. */
function twoCalls(first: string, second: string): Model {
  return {
    config: { name: "two-calls" },
    async generate({ messages }) {
      if (!messages.some((m) => m.role === "assistant")) {
        return {
          text: "",
          toolCalls: [
            { id: "call-1", name: "Bash", args: { command: first } },
            { id: "call-2", name: "Bash", args: { command: second } },
          ],
          usage,
        };
      }
      const results = messages.filter((m) => m.role === "tool").map((m) => m.content);
      return { text: `done: ${results.join(" | ")}`, toolCalls: [], usage };
    },
  };
}

/** Defers anything that pushes; blocks (exit 2) anything forbidden. */
const HOOK = `input=$(cat); case "$input" in *forbidden*) echo "forbidden here" >&2; exit 2;; *push*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"pushing needs a person"}}';; esac`;

async function agentWith(
  model: Model,
  park?: ParkCall,
  hooks: string[] = [HOOK],
  auditFile?: string,
) {
  const settings = path.join(dir, "settings.json");
  await writeFile(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: hooks.map((command) => ({ type: "command", command })) },
        ],
      },
    }),
  );
  const demo = await setupDemoAgent({
    workdir: dir,
    home: path.join(dir, "home"),
    demoHooks: false,
    model,
    settingsFiles: [settings],
    permission: { defaultAnswer: "deny" },
    hookSources: nodeHookSources(),
    park,
    auditFile,
  });
  demos.push(demo);
  return demo;
}

const exists = (name: string) =>
  readFile(path.join(dir, name), "utf8").then(
    () => true,
    () => false,
  );

/** Park through a real agent turn; returns what the store would have been given. */
async function parked(): Promise<ParkedContext> {
  let saved: unknown;
  const demo = await agentWith(twoCalls("touch pushed", "touch second"), async (request) => {
    saved = request.context;
    expect(request).toMatchObject({
      toolName: "Bash",
      toolUseId: "call-1",
      toolInput: { command: "touch pushed" },
      reason: "pushing needs a person",
    });
    return { id: "00000000-0000-4000-8000-000000000001" };
  });
  const session = await demo.agent.createSession({ workdir: dir });
  const reply = await demo.agent.respond(session, "push it");
  expect(reply.parked).toEqual({
    approvalId: "00000000-0000-4000-8000-000000000001",
    sessionId: session.id,
    tool: "Bash",
    toolUseId: "call-1",
    reason: "pushing needs a person",
  });
  expect(reply.stopped).toEqual({ reason: "pushing needs a person" });
  await demo.agent.endSession(session);
  // Through JSON, as a store keeps it.
  return readParkedContext(JSON.parse(JSON.stringify(saved)), "test");
}

/** A hook that defers pushes with an A3S routing (deciders, a deadline, what it decides). */
const routed = (routing: object, reason: string) =>
  `input=$(cat); case "$input" in *push*) printf '%s' '${JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "defer",
      permissionDecisionReason: reason,
      a3sRouting: routing,
    },
  })}';; esac`;

describe("routing from the deferring hooks (hookSpecificOutput.a3sRouting)", () => {
  it("parks the call with the hooks' routings combined: deciders intersect, shortest deadline", async () => {
    const requests: Parameters<ParkCall>[0][] = [];
    const demo = await agentWith(
      twoCalls("touch pushed", "touch second"),
      async (request) => {
        requests.push(request);
        return { id: "00000000-0000-4000-8000-000000000002" };
      },
      [
        routed({ deciders: ["alice", "bob"], deadline: "2h", onDeadline: "allow" }, "pushes"),
        routed({ deciders: ["bob", "carol"], deadline: "30m" }, "main is protected"),
      ],
    );
    const session = await demo.agent.createSession({ workdir: dir });
    const reply = await demo.agent.respond(session, "push it");
    await demo.agent.endSession(session);
    expect(reply.parked?.approvalId).toBe("00000000-0000-4000-8000-000000000002");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      reason: "pushes\nmain is protected",
      routing: { deciders: ["bob"], deadline: "30m", onDeadline: "deny" },
    });
    expect(await exists("pushed")).toBe(false);
  });

  it("blocks instead of parking when the hooks name no decider in common", async () => {
    const requests: unknown[] = [];
    const demo = await agentWith(
      twoCalls("touch pushed", "touch second"),
      async (request) => {
        requests.push(request);
        return { id: "00000000-0000-4000-8000-000000000003" };
      },
      [routed({ deciders: ["alice"] }, "a"), routed({ deciders: ["bob"] }, "b")],
    );
    const session = await demo.agent.createSession({ workdir: dir });
    const reply = await demo.agent.respond(session, "push it");
    await demo.agent.endSession(session);
    expect(reply.parked).toBeUndefined();
    expect(requests).toEqual([]);
    expect(await exists("pushed")).toBe(false);
    expect(reply.text).toContain("no decider in common");
  });
});

describe("parking a deferred call (real settings file, real bash hook)", () => {
  it("saves the conversation up to the call, the call and the calls after it; nothing runs", async () => {
    const context = await parked();
    expect(await exists("pushed")).toBe(false);
    expect(await exists("second")).toBe(false);
    expect(context.call).toEqual({ id: "call-1", name: "Bash", args: { command: "touch pushed" } });
    expect(context.rest.map((c) => c.id)).toEqual(["call-2"]);
    expect(context.messages.at(-1)).toMatchObject({ role: "assistant" });
    expect(context.messages.some((m) => m.role === "tool")).toBe(false);
    expect(context.workdir).toBe(dir);
  });

  it("resumed allowed with an edited input: PreToolUse fires again, its defer is answered, the rest take the usual path", async () => {
    const context = await parked();
    const demo = await agentWith(twoCalls("unused", "unused"));
    const seen: string[] = [];
    onFiring(demo.engine, (f) => {
      if (f.event.eventType === "PreToolUse" || f.event.eventType === "PostToolUse")
        seen.push(
          `${f.event.eventType} ${(f.event as unknown as { args: { command: string } }).args.command}`,
        );
    });
    const session = await demo.agent.restoreSession(context);
    expect(session.id).toBe(context.sessionId);
    const reply = await demo.agent.resumeParked(session, context, {
      status: "allowed",
      decidedBy: "alice",
      byDeadline: false,
      editedInput: { command: "touch pushed-edited" },
    });
    expect(await exists("pushed-edited")).toBe(true);
    expect(await exists("pushed")).toBe(false);
    // The second call's own permission question got the agent's default (deny): only the
    // approved call carries the person's answer.
    expect(await exists("second")).toBe(false);
    expect(seen).toEqual([
      "PreToolUse touch pushed-edited",
      "PostToolUse touch pushed-edited",
      "PreToolUse touch second",
    ]);
    expect(reply.text).toContain("done:");
    expect(reply.text).toContain("permission denied for Bash");
    expect(reply.parked).toBeUndefined();
  });

  it("an edited input a hook blocks stays blocked: the approval answers a defer, not a block", async () => {
    const context = await parked();
    const demo = await agentWith(twoCalls("unused", "unused"));
    const session = await demo.agent.restoreSession(context);
    const reply = await demo.agent.resumeParked(session, context, {
      status: "allowed",
      decidedBy: "alice",
      byDeadline: false,
      editedInput: { command: "touch forbidden" },
    });
    expect(await exists("forbidden")).toBe(false);
    expect(reply.text).toContain("Blocked by a hook: forbidden here");
  });

  it("denied by the deadline: PermissionDenied says so (decidedBy default); nothing runs", async () => {
    const context = await parked();
    const audit = path.join(dir, "audit.jsonl");
    const demo = await agentWith(twoCalls("unused", "unused"), undefined, [HOOK], audit);
    const denied: unknown[] = [];
    onFiring(demo.engine, (f) => {
      if (f.event.eventType === "PermissionDenied") denied.push(f.event);
    });
    const session = await demo.agent.restoreSession(context);
    const reply = await demo.agent.resumeParked(session, context, {
      status: "denied",
      decidedBy: "(deadline)",
      byDeadline: true,
      reason: "deadline passed",
      approvalId: "00000000-0000-4000-8000-000000000001",
    });
    expect(await exists("pushed")).toBe(false);
    demo.close();
    const steps = (await readFile(audit, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((r) => r.type === "approval");
    expect(steps).toEqual([
      expect.objectContaining({
        step: "expired",
        approvalId: "00000000-0000-4000-8000-000000000001",
        tool: "Bash",
        toolUseId: "call-1",
        decision: "deny",
        decidedBy: "(deadline)",
        reason: "deadline passed",
        edited: false,
      }),
      expect.objectContaining({ step: "resumed", decidedBy: "(deadline)", outcome: "denied" }),
    ]);
    expect(denied[0]).toMatchObject({
      tool: "Bash",
      toolUseId: "call-1",
      decidedBy: "default",
      reason: "denied by the deadline: deadline passed",
    });
    expect(reply.text).toContain("permission denied for Bash: denied by the deadline");
  });

  it("a context this agent did not write is refused, naming the field", () => {
    expect(() => readParkedContext({ version: 1, sessionId: "s" }, "a1")).toThrow(
      /approval a1: context\.workdir/,
    );
    expect(() => readParkedContext(undefined, "a1")).toThrow(/approval a1: context/);
  });
});
