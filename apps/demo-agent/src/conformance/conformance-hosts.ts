import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { HookResult, PermissionQuestion, ToolCall } from "@a3s-lab/hooks-core";
import { runCli } from "@a3s-lab/hooks-node";
import { setupDemoAgent } from "../demo-agent-setup.js";
import { onFiring } from "../firings.js";
import type { Model } from "../model.js";
import { nodeHookSources } from "../node-hook-sources.js";
import { type ConformanceCase, inputPath, type Observed } from "./conformance-cases.js";

const TOOL_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
]);

/** Where a block's reason goes: to the user for a prompt (it is never sent), else the model. */
const blockReasonToUser = (event: string) => event === "UserPromptSubmit";

/** A settings file with one command hook for the case's event. */
async function settingsFile(dir: string, c: ConformanceCase, command: string): Promise<string> {
  const group = {
    ...(c.matcher !== undefined
      ? { matcher: c.matcher }
      : TOOL_EVENTS.has(c.event)
        ? { matcher: "Bash" }
        : {}),
    hooks: [{ type: "command", command, timeout: 30 }],
  };
  const file = path.join(dir, "settings.json");
  await writeFile(file, JSON.stringify({ hooks: { [c.event]: [group] } }));
  return file;
}

/** The environment hooks run in: bash, python3 and node found on PATH. */
function hookEnv(): Record<string, string | undefined> {
  const nodeDir = path.dirname(process.execPath);
  return { PATH: `${nodeDir}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: process.env.HOME };
}

/**
 * Fire the case's event through `a3s-hooks test --json`, with the suite's stdin JSON as
 * `--input` and the hook in a settings file, and read what the merged result says follows.
 */
export async function throughCli(
  c: ConformanceCase,
  command: string,
  dir: string,
): Promise<Observed> {
  const settings = await settingsFile(dir, c, command);
  let out = "";
  let err = "";
  const code = await runCli(
    ["test", c.event, "--settings", settings, "--input", inputPath(c.event), "--json"],
    {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      stdin: (async function* () {})(),
      cwd: dir,
      home: dir,
      managedSettings: [],
      env: hookEnv(),
    },
  );
  if (code === 1 || out === "") throw new Error(`a3s-hooks test failed (${code}): ${err}${out}`);
  const r = JSON.parse(out) as {
    action: string;
    reason: string | null;
    permission: string | null;
    permissionReason: string | null;
    additionalContext: string | null;
    feedback: string | null;
    systemMessages: string[];
    stopTurn: { reason?: string } | null;
    event: { args?: Record<string, unknown>; result?: { output?: string } };
    hooks?: { status?: string; error?: { message?: string } | null; stderr?: string }[];
  };
  const outcome = r.stopTurn ? "stop" : r.action === "block" ? "block" : "continue";
  const toModel = [
    outcome === "block" && !blockReasonToUser(c.event) ? r.reason : null,
    r.feedback,
    r.additionalContext,
  ].filter((t): t is string => typeof t === "string" && t !== "");
  const user = [
    ...r.systemMessages,
    ...(r.stopTurn?.reason ? [r.stopTurn.reason] : []),
    ...(r.permission === "ask" && r.permissionReason ? [r.permissionReason] : []),
    ...(outcome === "block" && blockReasonToUser(c.event) && r.reason ? [r.reason] : []),
  ];
  return {
    outcome,
    model: toModel.length > 0 ? toModel.join("\n") : null,
    user,
    permission: r.permission ?? undefined,
    toolInput: r.event.args,
    toolOutput: r.event.result?.output,
    hookErrors: (r.hooks ?? [])
      .filter((h) => h.status === "failed" && h.error)
      .map((h) => `${h.error?.message}${h.stderr ? ` (stderr: ${h.stderr.trim()})` : ""}`),
  };
}

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** A model that runs one Bash command (leaving a marker file), then answers. */
function oneBashCall(marker: string, withTool: boolean): Model {
  let step = 0;
  return {
    config: { name: "conformance" },
    async generate() {
      step++;
      if (withTool && step === 1) {
        const call: ToolCall = {
          id: "toolu_conformance",
          name: "Bash",
          args: { command: `printf ran > '${marker}'` },
        };
        return { text: "", toolCalls: [call], usage };
      }
      return { text: "done", toolCalls: [], usage };
    },
  };
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Run the demo agent with the hook in a settings file and a model that makes one real Bash call
 * (or, for the prompt and stop events, none), and read what happened: whether the tool ran, what
 * reached the model's messages, what the user was shown (reply, permission questions, system
 * messages), whether the turn stopped.
 */
export async function throughDemoAgent(
  c: ConformanceCase,
  command: string,
  dir: string,
): Promise<Observed> {
  const workdir = path.join(dir, "work");
  await mkdir(workdir, { recursive: true });
  const marker = path.join(workdir, "ran");
  const settings = await settingsFile(dir, c, command);
  const questions: string[] = [];
  const answer = (q: PermissionQuestion) => {
    questions.push(q.reason);
    return "allow" as const;
  };
  const demo = await setupDemoAgent({
    workdir,
    home: dir,
    demoHooks: false,
    model: oneBashCall(marker, TOOL_EVENTS.has(c.event)),
    settingsFiles: [settings],
    permission: { defaultAnswer: answer },
    hookSources: nodeHookSources(),
  });
  const results: HookResult[] = [];
  let toolRan = false;
  const off = onFiring(demo.engine, (f) => {
    if (f.event.eventType === c.event) results.push(f.result);
    // The tool ran (with whatever input the hooks left): its PostToolUse or failure fired.
    if (f.event.eventType === "PostToolUse" || f.event.eventType === "PostToolUseFailure") {
      toolRan = true;
    }
  });
  try {
    const session = await demo.agent.createSession({ workdir });
    const before = session.messages.length;
    const reply = await demo.agent.respond(session, "run the tests");
    const seen = new Set<string>();
    let toolOutput: string | undefined;
    for (const m of session.messages.slice(before)) {
      if (m.role === "tool") {
        // What the model reads of the tool itself: the result before any hook's notes.
        toolOutput ??= m.content.split(/\n\[hook (?:feedback|context)\] /)[0];
        const blocked = /^Blocked by a hook: ([\s\S]*)$/.exec(m.content);
        if (blocked) seen.add(blocked[1]!);
        const feedback = /\n\[hook feedback\] ([\s\S]*?)(?=\n\[hook context\] |$)/.exec(m.content);
        if (feedback) seen.add(feedback[1]!);
        const context = /\n\[hook context\] ([\s\S]*)$/.exec(m.content);
        if (context) seen.add(context[1]!);
      } else if (m.role === "system") seen.add(m.content);
      else if (m.role === "user" && m.content.startsWith("Stop hook: ")) {
        seen.add(m.content.slice("Stop hook: ".length));
      }
    }
    // The real command ran when it is the model's; a rewritten one is known by its PostToolUse.
    const ran = toolRan || (await exists(marker));
    let outcome: Observed["outcome"] = "continue";
    if (reply.stopped) outcome = "stop";
    else if (c.event === "Stop") outcome = reply.stopContinuations > 0 ? "block" : "continue";
    else if (c.event === "UserPromptSubmit") outcome = reply.blocked ? "block" : "continue";
    else if (TOOL_EVENTS.has(c.event)) outcome = ran ? "continue" : "block";
    const first = results[0];
    return {
      outcome,
      model: seen.size > 0 ? [...seen].join("\n") : null,
      user: [
        ...results.flatMap((r) => r.systemMessages),
        ...(reply.stopped?.reason ? [reply.stopped.reason] : []),
        ...(reply.blocked ? [reply.blocked] : []),
        ...questions,
      ],
      permission: first?.permission,
      toolInput: (first?.event as { args?: Record<string, unknown> } | undefined)?.args,
      toolOutput,
    };
  } finally {
    off();
    demo.close();
  }
}
