import { block, createEvent, HookEngine } from "@a3s-lab/hooks-core";
import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import { trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { CommandHook } from "../handlers/command/command-hook.js";
import { HookHub } from "../hub/hook-hub.js";
import { HOOK_ATTRIBUTES as A, instrumentHooks } from "./instrument-hooks.js";

function telemetry() {
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const tracer = provider.getTracer("test");
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const meter = meterProvider.getMeter("test");
  const sums = async () => {
    await reader.forceFlush();
    const out: Record<string, number> = {};
    for (const batch of metricExporter.getMetrics()) {
      for (const scope of batch.scopeMetrics) {
        for (const metric of scope.metrics) {
          let total = 0;
          for (const point of metric.dataPoints) {
            const v = point.value as number | { count: number };
            total += typeof v === "number" ? v : v.count;
          }
          out[metric.descriptor.name] = total;
        }
      }
    }
    return out;
  };
  return { spans, provider, tracer, meter, sums, close: () => meterProvider.shutdown() };
}

/** A hub with one connected client whose hook answers continue and keeps what it was sent. */
function remoteClient(engine: HookEngine) {
  const hub = new HookHub({ engine });
  const sent: HookEventMessage[] = [];
  const stream = hub.attach(
    { clientId: "c1" },
    {
      send(message) {
        sent.push(message);
        if (!message.cancel) {
          queueMicrotask(() =>
            stream.receive({ hookId: message.hookId, eventId: message.eventId }),
          );
        }
      },
      close() {},
    },
  );
  hub.register(
    { clientId: "c1", clientSecret: stream.clientSecret },
    { eventType: "PreToolUse", hookId: "remote-policy", config: { name: "remote policy" } },
  );
  return { hub, sent };
}

// Prints its TRACEPARENT back as a system message.
const echoTraceparent = new CommandHook({
  args: ["/bin/sh", "-c", 'printf \'{"systemMessage":"%s"}\' "$TRACEPARENT"'],
  name: "echo traceparent",
});

const bash = () =>
  createEvent("PreToolUse", { sessionId: "s1", tool: "Bash", args: { command: "ls" } });

const opened: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

describe("instrumentHooks", () => {
  it("makes one trace of a firing with a command hook and a remote hook, context carried to both", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    engine.register(echoTraceparent.registration({ event: "PreToolUse" }));
    engine.register({ event: "PreToolUse", name: "local", handler: () => undefined });
    const { hub, sent } = remoteClient(engine);
    opened.push(() => hub.close({ drainMs: 0 }));
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });

    const result = await engine.fire(bash());
    expect(result.action).toBe("continue");

    const spans = t.spans.getFinishedSpans();
    const firing = spans.find((s) => s.name === "hooks.fire PreToolUse")!;
    expect(firing).toBeDefined();
    const { traceId, spanId } = firing.spanContext();
    const traceparent = `00-${traceId}-${spanId}-01`;
    // The command hook and the remote client got the firing's trace context.
    expect(result.systemMessages).toEqual([traceparent]);
    const firingMessage = sent.find((m) => !m.cancel)!;
    expect((firingMessage.payload as { metadata: Record<string, unknown> }).metadata).toEqual({
      traceparent,
    });
    // One trace: the firing and a child per hook, each saying where it ran.
    expect(spans).toHaveLength(4);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([traceId]));
    const hooks = spans.filter((s) => s !== firing);
    for (const span of hooks) expect(span.parentSpanContext?.spanId).toBe(spanId);
    const bySource = (source: string) =>
      hooks.find((s) => s.attributes[A.source] === source) as ReadableSpan;
    expect(bySource("command").attributes).toMatchObject({
      [A.eventType]: "PreToolUse",
      [A.hookName]: "echo traceparent",
      [A.decision]: "continue",
      [A.status]: "ok",
    });
    expect(bySource("remote").attributes).toMatchObject({
      [A.hookName]: "remote policy",
      [A.timeoutMs]: 5000,
    });
    expect(bySource("in-process").attributes[A.hookName]).toBe("local");
    expect(firing.attributes).toMatchObject({ [A.decision]: "continue", [A.hooks]: 3 });
    expect(await t.sums()).toMatchObject({
      "a3s.hooks.firings": 1,
      "a3s.hooks.hook.duration": 3,
      "a3s.hooks.firing.duration": 1,
    });
  });

  it("records a block, a failure and its error on the spans and counters", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    engine.register({
      event: "PreToolUse",
      id: "broken",
      handler: () => {
        throw new Error("boom");
      },
    });
    engine.register({
      event: "PreToolUse",
      id: "guard",
      handler: () => ({ action: "block", reason: "no" }),
    });
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });
    const result = await engine.fire(bash());
    expect(result.action).toBe("block");
    const spans = t.spans.getFinishedSpans();
    const broken = spans.find((s) => s.attributes[A.hookId] === "broken")!;
    expect(broken.status).toMatchObject({ code: 2, message: expect.stringContaining("boom") });
    expect(broken.attributes[A.errorCode]).toBe("HANDLER_FAILED");
    expect(spans.find((s) => s.attributes[A.hookId] === "guard")?.attributes[A.decision]).toBe(
      "block",
    );
    expect(await t.sums()).toMatchObject({
      "a3s.hooks.firings": 1,
      "a3s.hooks.blocks": 1,
      "a3s.hooks.failures": 1,
    });
  });

  it("carries nothing once taken off, and nothing for an engine never instrumented", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    engine.register(echoTraceparent.registration({ event: "PreToolUse" }));
    const { hub, sent } = remoteClient(engine);
    opened.push(() => hub.close({ drainMs: 0 }));
    const instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });
    instrumentation.uninstrument();
    instrumentation.uninstrument(); // idempotent
    const event = bash();
    const result = await engine.fire(event);
    expect(t.spans.getFinishedSpans()).toEqual([]);
    expect(result.systemMessages).toEqual([]);
    // The event itself, not a copy with a trace context.
    expect(sent.find((m) => !m.cancel)?.payload).toBe(event);
  });

  it("traces with a tracer given and no meter (the global meter, with no SDK behind it)", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", name: "audit", handler: () => undefined });
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer });
    await engine.fire(bash());
    expect(t.spans.getFinishedSpans().map((s) => s.name)).toEqual([
      "hook audit",
      "hooks.fire PreToolUse",
    ]);
  });

  it("follows the global tracer provider, also one an SDK registers after instrumenting", async () => {
    const engine = new HookEngine();
    engine.register({ event: "PreToolUse", handler: () => undefined });
    using _instrumentation = instrumentHooks(engine);
    await engine.fire(bash()); // no SDK yet: no-op spans
    const t = telemetry();
    opened.push(t.close);
    trace.setGlobalTracerProvider(t.provider);
    opened.push(() => trace.disable());
    await engine.fire(bash());
    expect(t.spans.getFinishedSpans().map((s) => s.name)).toContain("hooks.fire PreToolUse");
  });

  it("leaves a firing with no hook for its event alone", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });
    await engine.fire(bash());
    await expect(engine.fire({ eventType: "Nope" } as never)).rejects.toMatchObject({
      code: "UNKNOWN_EVENT",
    });
    expect(t.spans.getFinishedSpans()).toEqual([]);
  });

  it("composes with a middleware that answers in place: one span, with its answer, no hook run", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    let ran = 0;
    engine.register({ event: "PreToolUse", name: "policy", handler: () => void ran++ });
    using _cache = engine.use({
      name: "cache",
      wrapFire: () => block("cached: denied"),
    });
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });
    const result = await engine.fire(bash());
    expect(ran).toBe(0);
    expect(result.reason).toBe("cached: denied");
    const spans = t.spans.getFinishedSpans();
    const firing = spans.find((s) => s.name === "hooks.fire PreToolUse")!;
    expect(firing.attributes[A.decision]).toBe("block");
    expect(firing.attributes[A.blockedBy]).toBe("middleware:cache");
    const answer = spans.find((s) => s.name === "hook cache")!;
    expect(
      answer.parentSpanContext?.spanId ?? (answer as { parentSpanId?: string }).parentSpanId,
    ).toBe(firing.spanContext().spanId);
    expect(answer.attributes[A.decision]).toBe("block");
    expect(await t.sums()).toMatchObject({ "a3s.hooks.firings": 1, "a3s.hooks.blocks": 1 });
  });

  it("keeps two concurrent firings' trace contexts apart", async () => {
    const t = telemetry();
    opened.push(t.close);
    const engine = new HookEngine();
    engine.register(echoTraceparent.registration({ event: "PreToolUse" }));
    using _instrumentation = instrumentHooks(engine, { tracer: t.tracer, meter: t.meter });
    const [a, b] = await Promise.all([engine.fire(bash()), engine.fire(bash())]);
    const firings = t.spans.getFinishedSpans().filter((s) => s.name === "hooks.fire PreToolUse");
    const parents = firings.map(
      (s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`,
    );
    expect(new Set([a!.systemMessages[0], b!.systemMessages[0]])).toEqual(new Set(parents));
    expect(parents[0]).not.toBe(parents[1]);
  });
});
