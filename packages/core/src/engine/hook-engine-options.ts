import * as z from "zod/mini";
import type { AuditLevel } from "../audit/audit.js";
import type { Timers } from "../base/timers.js";
import { renamedOption } from "../base/validation.js";
import type { HookEventName } from "../events/event-schemas.js";
import { MAX_DELAY_MS } from "../merge/hook-response.js";
import type { FailBehavior } from "../merge/merge.js";

/** Something that validates a tool's input, such as a zod schema. */
export interface InputSchema {
  /** Check a value without throwing (a zod schema's `safeParse` fits). */
  safeParse(value: unknown): { success: true } | { success: false; error: unknown };
}

/** Options of `new HookEngine(options)`; each has a default. */
export interface HookEngineOptions {
  /** `parallel` (default): all matching hooks start at once. `sequential`: each sees the last one's changes. */
  mode?: "parallel" | "sequential";
  /** Per-hook timeout in milliseconds when a registration gives none. Default 5000. */
  defaultTimeoutMs?: number;
  /** Fail behaviour when a registration gives none. Default `continue`. */
  failBehavior?: FailBehavior;
  /** Default 10. */
  maxHooksPerEvent?: number;
  /** Default 50. */
  maxTotalHooks?: number;
  /** `false` turns every hook off: `fire` answers continue at once. */
  enabled?: boolean;
  /** Default `info`. */
  auditLevel?: AuditLevel;
  /** Clock and timers; inject fakes in tests. */
  timers?: Timers;
  /** Input schemas of the host's tools, used to validate a hook's `modified.args`. */
  toolSchemas?: Readonly<Record<string, InputSchema>>;
}

/** Options of one `engine.fire(event, options)`. */
export interface FireOptions {
  /** Abort the firing: pending hooks are aborted and `fire` rejects with `ABORTED`. */
  signal?: AbortSignal;
}

/** A registered hook as `list()` shows it. */
export interface HookInfo {
  /** The hook's id, unique in the engine. */
  id: string;
  /** The name it was registered with, if any. */
  name?: string;
  /** The event it hooks. */
  event: HookEventName;
  /** Lower runs earlier. */
  priority: number;
  /** Milliseconds it may take before it is aborted. */
  timeout: number;
  /** What it contributes when it fails or times out. */
  failBehavior: FailBehavior;
  /** True for a fire-and-forget hook. */
  async: boolean;
  /** True when it unregisters after its first matching firing. */
  once: boolean;
  /** Where it came from (`settings:/path`, `remote:client-id`, …), if it was told. */
  source?: string;
  /** A readable form of the matcher: `Bash|Write`, `{"tool":"Write","pathPattern":"*.env"}`, `<function>`, `*`. */
  matcher: string;
  /** Counts since it was registered: runs, blocks it answered, failures and timeouts. */
  stats: { runs: number; blocks: number; failures: number; timeouts: number };
}

/** Validates `new HookEngine(options)`; errors name the field (`options.maxTotalHooks`). */
export const engineOptionsSchema = z.object({
  mode: z.optional(z.enum(["parallel", "sequential"])),
  defaultTimeoutMs: z.optional(z.number().check(z.positive(), z.lte(MAX_DELAY_MS))),
  defaultTimeout: renamedOption("defaultTimeoutMs"),
  failBehavior: z.optional(z.enum(["continue", "block"])),
  maxHooksPerEvent: z.optional(z.int().check(z.positive())),
  maxTotalHooks: z.optional(z.int().check(z.positive())),
  enabled: z.optional(z.boolean()),
  auditLevel: z.optional(z.enum(["off", "info", "verbose"])),
  timers: z.optional(
    z.custom<Timers>((t) => typeof t === "object" && t !== null, "expected a timers object"),
  ),
  toolSchemas: z.optional(
    z.record(
      z.string(),
      z.custom<InputSchema>(
        (s) => typeof (s as InputSchema)?.safeParse === "function",
        "expected a schema with safeParse",
      ),
    ),
  ),
});
