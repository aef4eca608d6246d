/**
 * A remote hook answers a tool call in place of the tool, over a real hook server's gRPC and
 * WebSocket endpoints, with the engine traced by OpenTelemetry: the tool does not run, the
 * caller (the model) reads the hook's output, and the remote hook's span is a child of the
 * firing's span, whose trace context reached the client in the event.
 */
import {
  type AuditEvent,
  HookEngine,
  MAX_RESPOND_OUTPUT_CHARS,
  runTool,
} from "@a3s-lab/hooks-core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it, vi } from "vitest";
import { HOOK_ATTRIBUTES, instrumentHooks } from "../../src/otel/instrument-hooks.js";
import { useHookServers } from "./hook-server-fixture.js";
import { rawGrpcHook, rawWsHook } from "./raw-hook-clients.js";

const TOKEN = "respond-token";
const { serve, cleanup } = useHookServers(TOKEN);
const ANSWER = "42 files, answered by the remote hook";

type Seen = { traceparent?: unknown };
const options = (clientId: string) =>
  ({ token: TOKEN, clientId, cleanup, tool: "Bash", failBehavior: "continue" }) as const;

/** Connects a raw client whose hook answers `respond` with `output`; records what it got. */
type Connect = (
  server: { address: string; webSocketUrl?: string | undefined },
  output: string,
  seen: Seen[],
) => Promise<void>;

const grpc: Connect = (server, output, seen) =>
  rawGrpcHook(server.address, options("grpc"), (eventId, event) => {
    const payload = JSON.parse(Buffer.from(event.payload!).toString("utf8"));
    seen.push({ traceparent: payload.metadata?.traceparent });
    return { hookId: "h", eventId, action: "RESPOND", output };
  });

const ws: Connect = (server, output, seen) =>
  rawWsHook(server.webSocketUrl!, options("ws"), (eventId, event) => {
    seen.push({ traceparent: (event.payload?.metadata as Seen | undefined)?.traceparent });
    return JSON.stringify({
      type: "HookResponse",
      hookId: "h",
      eventId,
      action: "respond",
      output,
    });
  });

function traced(engine: HookEngine) {
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const instrumentation = instrumentHooks(engine, { tracer: provider.getTracer("test") });
  cleanup.push(() => instrumentation.uninstrument());
  return spans;
}

const call = (tool = "Bash") => ({ sessionId: "s1", tool, args: { command: "ls | wc -l" } });

describe.each([
  ["gRPC", grpc],
  ["WebSocket", ws],
] as const)("a remote respond over %s", (_name, connect) => {
  it("stands for the tool, which does not run; the firing's span is the remote hook's parent", async () => {
    const engine = new HookEngine({ auditLevel: "info" });
    const spans = traced(engine);
    const { server } = await serve({ engine });
    const seen: Seen[] = [];
    await connect(server, ANSWER, seen);
    const audit: AuditEvent[] = [];
    engine.onAudit((r) => audit.push(r));

    const execute = vi.fn(async () => ({ output: "ran" }));
    const result = await runTool(engine, call(), execute);
    expect(execute).not.toHaveBeenCalled();
    expect(result.output).toBe(ANSWER);
    expect(result.pre.respond).toMatchObject({ output: ANSWER });
    expect(audit).toContainEqual(
      expect.objectContaining({
        type: "responded",
        event: "PreToolUse",
        outputLength: ANSWER.length,
      }),
    );

    const finished = spans.getFinishedSpans();
    const firing = finished.find((s) => s.name === "hooks.fire PreToolUse")!;
    const hook = finished.find((s) => s.attributes[HOOK_ATTRIBUTES.source] === "remote")!;
    expect(firing).toBeDefined();
    expect(hook).toBeDefined();
    expect(hook.parentSpanContext?.spanId).toBe(firing.spanContext().spanId);
    expect(hook.spanContext().traceId).toBe(firing.spanContext().traceId);
    expect(hook.attributes[HOOK_ATTRIBUTES.decision]).toBe("respond");
    // The firing's decision too: a respond is no block, though hosts that do not know it read one.
    expect(firing.attributes[HOOK_ATTRIBUTES.decision]).toBe("respond");
    // The client got the firing's trace context: its own spans join the same trace.
    const { traceId, spanId } = firing.spanContext();
    expect(seen).toEqual([{ traceparent: `00-${traceId}-${spanId}-01` }]);
  });

  it("cannot answer for a tool its matcher does not fit", async () => {
    const { engine, server } = await serve();
    const seen: Seen[] = [];
    await connect(server, ANSWER, seen);
    const execute = vi.fn(async () => ({ output: "read it" }));
    const result = await runTool(engine, call("Read"), execute);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.output).toBe("read it");
    expect(seen).toEqual([]);
  });

  it("refuses an output past the cap: the hook's failure, under its fail behaviour", async () => {
    const { engine, server } = await serve();
    await connect(server, "x".repeat(MAX_RESPOND_OUTPUT_CHARS + 1), []);
    const execute = vi.fn(async () => ({ output: "ran" }));
    const result = await runTool(engine, call(), execute);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.output).toBe("ran");
    expect(result.pre.respond).toBeUndefined();
    expect(result.pre.outcomes[0]).toMatchObject({ status: "failed" });
    expect(result.pre.outcomes[0]!.error!.message).toMatch(/output/);
  });
});
