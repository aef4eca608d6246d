import { generateLayersOf, type HookEngine } from "./hook-engine.js";
import {
  type GenerateCall,
  type GenerateOutput,
  generateThrough,
  MiddlewareCall,
} from "./middleware.js";

/**
 * Run one model call through the engine's `wrapGenerate` middleware: each may observe it,
 * rewrite it, or answer in its place (then `generate` is not called). With none installed,
 * `generate` runs as it is. For framework adapters: the AI SDK's `hooksMiddleware` calls it
 * between GenerateStart and GenerateEnd.
 *
 * @example
 * ```ts
 * const output = await runGeneration(engine, call, async (c) => toOutput(await model.generate(c.params)));
 * ```
 */
export function runGeneration(
  engine: HookEngine,
  call: GenerateCall,
  generate: (call: GenerateCall) => Promise<GenerateOutput>,
  options: { signal?: AbortSignal } = {},
): Promise<GenerateOutput> {
  const wrapped = generateLayersOf(engine);
  if (wrapped === undefined) return generate(call);
  return generateThrough(
    wrapped.layers,
    call,
    new MiddlewareCall(options.signal),
    generate,
    wrapped.host,
  );
}
