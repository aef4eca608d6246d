import { isWireId } from "@a3s-lab/hooks-core/wire";
import * as z from "zod/mini";

const delay = z.int().check(z.positive(), z.lte(2_147_483_647));
/** `A3sClient` options, checked once in the constructor. */
export const optionsSchema = z.object({
  address: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  token: z.optional(z.string().check(z.maxLength(4096))),
  clientId: z.optional(
    z.string().check(z.refine(isWireId, "expected 1 to 100 of A-Z a-z 0-9 . _ -")),
  ),
  transport: z.optional(z.custom((t) => typeof t === "function", "expected a function")),
  reconnect: z.optional(
    z.strictObject({ initialDelayMs: z.optional(delay), maxDelayMs: z.optional(delay) }),
  ),
  connectTimeoutMs: z.optional(delay),
  allowPlaintextRemote: z.optional(z.boolean()),
  auditLevel: z.optional(z.enum(["off", "info", "verbose"])),
  timers: z.optional(z.custom((t) => typeof t === "object" && t !== null, "expected timers")),
});
