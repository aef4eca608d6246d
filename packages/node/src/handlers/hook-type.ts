import type { z } from "zod";
import type { SettingsHandler } from "./handler.js";
import type { HookCommonFields } from "./hook-common.js";

/** A fault a hook type finds in one definition before it runs, naming the definition's field. */
export interface HookTypeProblem {
  severity: "error" | "warning";
  /** The definition's field at fault (`url`, `headers.Authorization`, …). */
  field: string;
  message: string;
}

/**
 * One settings-file hook type, all in one record: the fields of its definition, how long it
 * may take, how a listing shows it, what is wrong with a definition, and how to make its
 * handler. The registry (`settings-handler.ts`) lists every record once; the settings schema,
 * listings and registration read it from there, so a new type is its folder plus that line.
 *
 * The common fields (`timeout`, `once`, `async`, `failBehavior`, `priority`, …) are not part of
 * a type: every type gets them the same way (`hookCommonShape`, `applyCommonFields`).
 */
export interface HookType<N extends string, D, Deps> {
  /** The definition's `type` value. */
  readonly type: N;
  /** The type's own fields, as a zod shape (the common fields are added to it). */
  readonly shape: z.ZodRawShape;
  /** Seconds the hook may take when it sets no `timeout`. */
  readonly defaultTimeoutSeconds: number;
  /** One line for listings (`POST https://…`, `prompt: …`). */
  describe(definition: D): string;
  /** Faults of a definition, found before it runs; none for most types. */
  check(definition: D): HookTypeProblem[];
  /**
   * The handler of a definition. Throws `INVALID_CONFIG` when it cannot run in this host. The
   * command type has none: it registers through `CommandHook`, whose spawn options are the
   * host's, not a handler's.
   */
  readonly create: ((definition: D & HookCommonFields, deps: Deps) => SettingsHandler) | undefined;
}

/** Text shortened to one line of at most 60 characters, for listings. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
