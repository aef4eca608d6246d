/**
 * @a3s-lab/hooks-node/otel: OpenTelemetry traces and metrics for a `HookEngine` (and so for
 * the remote hooks of a hook server on it). Needs `@opentelemetry/api`, an optional peer
 * dependency: install it, and an OpenTelemetry SDK, to use this entry. Nothing else in the
 * package loads it.
 *
 * @example
 * ```ts
 * import { instrumentHooks } from "@a3s-lab/hooks-node/otel";
 * using _tracing = instrumentHooks(engine);
 * ```
 */
export type { HookInstrumentation, HookInstrumentationOptions } from "./otel/instrument-hooks.js";
export { HOOK_ATTRIBUTES, instrumentHooks } from "./otel/instrument-hooks.js";
