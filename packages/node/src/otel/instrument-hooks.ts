import type { HookEngine, HookEvent, HookInfo, HookResult } from "@a3s-lab/hooks-core";
import {
  type Attributes,
  context,
  createNoopMeter,
  INVALID_TRACEID,
  type Meter,
  metrics,
  ProxyTracerProvider,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { type HookKind, TRACED_FIRING, type TracedFiring } from "./trace-context.js";

/** {@link instrumentHooks}' options. */
export interface HookInstrumentationOptions {
  /** Where spans go. Default: the global tracer provider's `@a3s-lab/hooks-node` tracer. */
  tracer?: Tracer;
  /** Where counters and histograms go. Default: the global meter provider's. */
  meter?: Meter;
}

/** What {@link instrumentHooks} returns: the way to take the instrumentation off again. */
export interface HookInstrumentation extends Disposable {
  /** Take the instrumentation's middleware off the engine. Idempotent. */
  uninstrument(): void;
}

/**
 * The priority of the instrumentation's middleware: outside every other one, so a firing's
 * span covers what other middleware do, answers given in place included.
 */
const OUTERMOST = Number.MIN_SAFE_INTEGER;

const SCOPE = "@a3s-lab/hooks-node";

/** Span and metric attribute names. */
export const HOOK_ATTRIBUTES = Object.freeze({
  eventType: "a3s.hooks.event_type",
  eventId: "a3s.hooks.event_id",
  hookId: "a3s.hooks.hook_id",
  hookName: "a3s.hooks.hook_name",
  /** `in-process`, `command` or `remote`. */
  source: "a3s.hooks.source",
  /** The hook's answer (`continue`, `block`, `retry`, `skip`, `respond`), or the firing's decision. */
  decision: "a3s.hooks.decision",
  /** `ok`, `failed`, `timeout`, `cancelled` or `async`. */
  status: "a3s.hooks.status",
  timeoutMs: "a3s.hooks.timeout_ms",
  hooks: "a3s.hooks.hook_count",
  /** On a firing that blocked: the hook whose block won. */
  blockedBy: "a3s.hooks.blocked_by",
  errorCode: "error.type",
});

const A = HOOK_ATTRIBUTES;

const names = new Map<string, string>();
const spanName = (type: string) => {
  let name = names.get(type);
  if (name === undefined) names.set(type, (name = `hooks.fire ${type}`));
  return name;
};

const noopCounter = Object.getPrototypeOf(createNoopMeter().createCounter("noop"));
/** True for the API's no-op meter (no meter provider was registered when it was handed out). */
function isNoop(meter: Meter): boolean {
  return Object.getPrototypeOf(meter.createCounter("a3s.hooks.probe")) === noopCounter;
}

/** The W3C `traceparent` of a span, or undefined for a span that is not recorded anywhere. */
function traceparentOf(span: Span): string | undefined {
  const sc = span.spanContext();
  if (!trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 1) === 1 ? "01" : "00"}`;
}

/**
 * Trace and measure an engine's firings with OpenTelemetry: one span per `fire()` (named
 * `hooks.fire <EventType>`, a child of whatever span is active) with a child span per hook
 * that ran (event type, hook id and name, source: in-process, command or remote, decision,
 * status, timeout, error), and the counters `a3s.hooks.firings`, `a3s.hooks.blocks`,
 * `a3s.hooks.failures` and the histograms `a3s.hooks.firing.duration`,
 * `a3s.hooks.hook.duration` (milliseconds). The firing's trace context reaches command hooks
 * in `TRACEPARENT` and remote clients in the event's `metadata.traceparent` (W3C format), so a
 * firing is one trace across processes. A hook server's remote hooks live on its engine:
 * instrumenting the engine covers them.
 *
 * It is a middleware (`engine.use`), the outermost one: the firing's span covers what other
 * middleware do, an answer one gives in place of the hooks included, and the trace context
 * travels on the firing's context, not through anything shared between firings.
 *
 * `@opentelemetry/api` is an optional peer dependency, loaded only by this entry: an engine
 * that is not instrumented runs the same code as before. Without a `tracer`, spans go to the
 * global tracer provider, also one an SDK registers later; until one is, and when no meter
 * provider was registered before this call (without a `meter`), a firing runs untouched and
 * nothing is propagated.
 *
 * @example
 * ```ts
 * import { instrumentHooks } from "@a3s-lab/hooks-node/otel";
 *
 * const engine = new HookEngine();
 * using _tracing = instrumentHooks(engine); // the global providers your OpenTelemetry SDK set up
 * ```
 */
export function instrumentHooks(
  engine: HookEngine,
  options: HookInstrumentationOptions = {},
): HookInstrumentation {
  const tracer = options.tracer ?? trace.getTracer(SCOPE);
  // The global provider is a proxy that an SDK registered later fills in: asked per firing.
  const global = options.tracer === undefined ? trace.getTracerProvider() : undefined;
  const proxy = global instanceof ProxyTracerProvider ? global : undefined;
  const meter = options.meter ?? metrics.getMeter(SCOPE);
  const noMeter = isNoop(meter);
  const firings = meter.createCounter("a3s.hooks.firings", {
    description: "Firings that ran at least one hook",
  });
  const blocks = meter.createCounter("a3s.hooks.blocks", {
    description: "Firings whose decision was a block",
  });
  const failures = meter.createCounter("a3s.hooks.failures", {
    description: "Hooks that failed or timed out",
  });
  const firingDuration = meter.createHistogram("a3s.hooks.firing.duration", {
    unit: "ms",
    description: "How long a firing took, from fire() to its merged result",
  });
  const hookDuration = meter.createHistogram("a3s.hooks.hook.duration", {
    unit: "ms",
    description: "How long one hook took",
  });

  // Hook ids → what engine.list() says of them, read again when a firing names an id not seen
  // yet; an id gone by then (a `once` hook) is remembered as unknown, not looked up per firing.
  let known = new Map<string, HookInfo | undefined>();
  const infoOf = (id: string): HookInfo | undefined => {
    if (!known.has(id)) {
      known = new Map(engine.list().map((h) => [h.id, h]));
      if (!known.has(id)) known.set(id, undefined);
    }
    return known.get(id);
  };

  const record = (
    event: HookEvent,
    firing: Span,
    start: number,
    result: HookResult,
    kinds: ReadonlyMap<string, HookKind> | undefined,
  ) => {
    const type = event.eventType;
    const parent = trace.setSpan(context.active(), firing);
    for (const outcome of result.outcomes) {
      const info = infoOf(outcome.hookId);
      const source =
        kinds?.get(outcome.hookId) ??
        (info?.source?.startsWith("remote:") ? "remote" : "in-process");
      const attributes: Attributes = {
        [A.eventType]: type,
        [A.hookId]: outcome.hookId,
        [A.source]: source,
        [A.decision]: outcome.action,
        [A.status]: outcome.status,
      };
      if (outcome.name !== undefined) attributes[A.hookName] = outcome.name;
      if (info !== undefined) attributes[A.timeoutMs] = info.timeout;
      // Hooks of a parallel firing start together, at the firing's start.
      const span = tracer.startSpan(
        `hook ${outcome.name ?? outcome.hookId}`,
        { attributes, startTime: start },
        parent,
      );
      if (outcome.error !== undefined) {
        span.setAttribute(A.errorCode, outcome.error.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
        failures.add(1, { [A.eventType]: type, [A.source]: source });
      } else if (outcome.status === "timeout") {
        span.setStatus({ code: SpanStatusCode.ERROR, message: "timed out" });
        failures.add(1, { [A.eventType]: type, [A.source]: source });
      }
      span.end(start + outcome.duration);
      hookDuration.record(outcome.duration, { [A.eventType]: type, [A.source]: source });
    }
    // A hook that answered in place of the tool is no block, though hosts read it as one.
    const decision = result.respond !== undefined ? "respond" : result.action;
    firing.setAttribute(A.decision, decision);
    firing.setAttribute(A.hooks, result.outcomes.length);
    if (decision === "block") {
      blocks.add(1, { [A.eventType]: type });
      if (result.blockedBy !== undefined) firing.setAttribute(A.blockedBy, result.blockedBy);
    }
    firings.add(1, { [A.eventType]: type, [A.decision]: decision });
  };

  const off = engine.use({
    name: "opentelemetry",
    priority: OUTERMOST,
    wrapFire(event, ctx, next) {
      // Nothing registered for the event: no hook runs, so nothing is worth a span.
      if (!engine.enabled || !engine.has(event.eventType)) return next();
      const type = event.eventType;
      // The global tracer with no SDK behind it, and no meter: nothing would be recorded.
      if (noMeter && proxy !== undefined && proxy.getDelegateTracer(SCOPE) === undefined) {
        return next();
      }
      const span = tracer.startSpan(spanName(type));
      // No SDK behind the tracer and no meter: nothing would be recorded or carried.
      if (noMeter && !span.isRecording() && span.spanContext().traceId === INVALID_TRACEID) {
        return next();
      }
      const start = performance.timeOrigin + performance.now();
      const traceparent = traceparentOf(span);
      span.setAttribute(A.eventType, type);
      span.setAttribute(A.eventId, String(event.eventId));
      let traced: TracedFiring | undefined;
      if (traceparent !== undefined) {
        traced = { traceparent, kinds: new Map() };
        ctx.set(TRACED_FIRING, traced);
      }
      let pending: Promise<HookResult>;
      try {
        pending = context.with(trace.setSpan(context.active(), span), () => next());
      } catch (error) {
        span.recordException(error as Error);
        span.end();
        throw error;
      }
      return pending.then(
        (result) => {
          try {
            record(event, span, start, result, traced?.kinds);
            firingDuration.record(performance.timeOrigin + performance.now() - start, {
              [A.eventType]: type,
              [A.decision]: result.action,
            });
          } catch {
            // A misbehaving exporter must not change the firing's answer.
          }
          span.end();
          return result;
        },
        (error: unknown) => {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: String((error as Error)?.message),
          });
          span.end();
          throw error;
        },
      );
    },
  });
  const uninstrument = () => off();
  return { uninstrument, [Symbol.dispose]: uninstrument };
}
