import * as z from "zod/mini";
import { type RateLimit, rateLimitSchema } from "../hub/rate-limiter.js";

/** The WebSocket endpoint (browsers, and `createWebSocketTransport` in Node). */
export interface WebSocketOptions {
  /**
   * Origins of the pages that may connect, like `https://app.example.com`; `"*"` allows every
   * page (cross-site WebSocket hijacking is then the token's problem alone). Default: only
   * the pages this server serves itself (`httpHandler`). Programs send no `Origin` and are
   * always let through to the token check.
   */
  allowedOrigins?: readonly string[] | "*";
  /** Also serve HTTP and WebSocket on this port (0 picks one). Default: only the gRPC port. */
  port?: number;
  /** How long a new socket has to send its `Hello` frame. Default the server's `authTimeoutMs` (5000 ms). */
  authTimeoutMs?: number;
  /**
   * Bytes a socket may send before its `Hello` is accepted (a Hello is well under 1 KiB);
   * past it, the socket is closed with 4413. Default 64 KiB.
   */
  maxHelloBytes?: number;
  /**
   * Frames per socket: a burst, then a steady rate. Default 1000 at once, then 500 per second.
   * Answers to firings the server sent are not counted (the firings bound them); every other
   * frame is, unsolicited or late answers included.
   */
  frameRate?: RateLimit;
}

/** {@link WebSocketOptions}, checked by `createHookServer`. */
export const webSocketOptionsSchema = z.strictObject({
  allowedOrigins: z.optional(z.union([z.literal("*"), z.array(z.string())])),
  port: z.optional(z.int().check(z.gte(0), z.lte(65_535))),
  authTimeoutMs: z.optional(z.int().check(z.positive(), z.lte(600_000))),
  maxHelloBytes: z.optional(z.int().check(z.gte(1024))),
  frameRate: z.optional(rateLimitSchema),
});
