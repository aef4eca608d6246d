/**
 * A small stand-in agent for the examples' tests, run as its own process: a HookEngine, the
 * hook server, and an AgentService whose tools are fakes that record what they were asked to
 * run. Tool calls go through core's tool guard, with the permission step firing
 * PermissionRequest for tools that need a person's yes (Bash, Write, Edit), as an agent would.
 *
 * argv[2]: the token. Prints one JSON line, `{ "address": … }`, when it listens; answers
 * `{ "op": "ran" }` on IPC with the commands its fake Bash ran.
 */
import {
  createEvent,
  HookEngine,
  HookError,
  randomId,
  runTool,
  ToolBlockedError,
} from "@a3s-lab/hooks-core";
import { type AgentService, createHookServer } from "@a3s-lab/hooks-node";

const ASKS_PERMISSION = new Set(["Bash", "Write", "Edit"]);
const engine = new HookEngine();
const sessions = new Set<string>();
const ran: string[] = [];

function session(sessionId: string): void {
  if (!sessions.has(sessionId)) throw new HookError("NOT_FOUND", `no session ${sessionId}`);
}

const agent: AgentService = {
  async createSession() {
    const sessionId = randomId();
    sessions.add(sessionId);
    await engine.fire(createEvent("SessionStart", { sessionId, source: "startup" }));
    return { sessionId };
  },
  async destroySession({ sessionId }) {
    if (!sessions.delete(sessionId)) return { destroyed: false };
    await engine.fire(createEvent("SessionEnd", { sessionId, reason: "exit" }));
    return { destroyed: true };
  },
  async *generate({ sessionId, prompt }) {
    session(sessionId);
    const model = { name: "example-model" };
    yield { progress: { kind: "text", text: "thinking" } };
    const text = `You said: ${prompt}`;
    const usage = { prompt_tokens: 12, completion_tokens: 18, total_tokens: 30 };
    await engine.fire(
      createEvent("GenerateEnd", {
        sessionId,
        prompt,
        model,
        response: { text, toolCalls: [], usage, duration: 1 },
      }),
    );
    yield { result: { text, usage: { promptTokens: 12, completionTokens: 18, totalTokens: 30 } } };
  },
  async executeTool({ sessionId, tool, args }) {
    session(sessionId);
    const authorize = async (callArgs: Record<string, unknown>) => {
      if (!ASKS_PERMISSION.has(tool)) return undefined;
      const asked = await engine.fire(
        createEvent("PermissionRequest", { sessionId, tool, args: callArgs }),
      );
      if (asked.action === "block") throw new ToolBlockedError(tool, asked);
      return undefined;
    };
    try {
      const result = await runTool(
        engine,
        { sessionId, tool, args },
        async (callArgs) => {
          if (tool === "Bash") ran.push(String(callArgs.command));
          return { output: `${tool} ok` };
        },
        { authorize },
      );
      return { success: result.success, output: result.output, durationMs: result.duration };
    } catch (error) {
      if (error instanceof ToolBlockedError) {
        return { success: false, output: "", durationMs: 0, blocked: true, reason: error.reason };
      }
      throw error;
    }
  },
};

const server = await createHookServer({ engine, port: 0, token: process.argv[2]!, agent });
process.stdout.write(`${JSON.stringify({ address: server.address })}\n`);
process.on("message", (message) => {
  if ((message as { op?: string }).op === "ran" && process.connected) {
    process.send?.({ ran }, undefined, {}, () => {});
  }
});
process.on("disconnect", () => void server.close().finally(() => process.exit(0)));
