import { HookError, type HookErrorCode } from "@a3s-lab/hooks-core";
import { WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";

const CODE_OF_CLOSE: Readonly<Record<number, HookErrorCode>> = {
  [WS_CLOSE_CODES.goingAway]: "UNAVAILABLE",
  [WS_CLOSE_CODES.unsupportedData]: "INVALID_OUTPUT",
  [WS_CLOSE_CODES.internalError]: "INTERNAL",
  [WS_CLOSE_CODES.unauthenticated]: "UNAUTHENTICATED",
  [WS_CLOSE_CODES.forbiddenOrigin]: "PERMISSION_DENIED",
  [WS_CLOSE_CODES.authTimeout]: "TIMEOUT",
  [WS_CLOSE_CODES.replaced]: "ABORTED",
  [WS_CLOSE_CODES.frameTooLarge]: "LIMIT_EXCEEDED",
  [WS_CLOSE_CODES.rateLimited]: "LIMIT_EXCEEDED",
  // RFC 6455 "message too big": a frame over the receiver's own payload limit.
  1009: "LIMIT_EXCEEDED",
};

const KNOWN_CODES = new Set<string>([
  "INVALID_CONFIG",
  "UNKNOWN_EVENT",
  "INVALID_EVENT",
  "INVALID_OUTPUT",
  "INVALID_MODIFICATION",
  "INVALID_PATTERN",
  "LIMIT_EXCEEDED",
  "BLOCKED",
  "RETRY_EXHAUSTED",
  "TIMEOUT",
  "HANDLER_FAILED",
  "ABORTED",
  "TEMPLATE_ERROR",
  "NOT_FOUND",
  "UNAUTHENTICATED",
  "PERMISSION_DENIED",
  "UNAVAILABLE",
  "FAILED_PRECONDITION",
  "INTERNAL",
]);

/** A `HookErrorCode` from a peer, or `INTERNAL` for a code this version does not know. */
export function toHookErrorCode(code: string): HookErrorCode {
  // Agents before 0.2 spelled bad options `INVALID_REGISTRATION`.
  if (code === "INVALID_REGISTRATION") return "INVALID_CONFIG";
  return KNOWN_CODES.has(code) ? (code as HookErrorCode) : "INTERNAL";
}

/**
 * Why a socket closed, as the `HookError` a caller sees. The server's last `Error` frame (sent
 * just before it closes) is preferred: it carries the exact code and the whole message, where
 * a close reason is cut at 123 bytes.
 *
 * @example
 * ```ts
 * socket.addEventListener("close", (e) => console.log(closeError(e.code, e.reason).code));
 * ```
 */
export function closeError(
  code: number,
  reason: string,
  serverError?: { code: string; message: string; path?: (string | number)[] | undefined },
): HookError {
  const details = { closeCode: code };
  if (serverError) {
    return new HookError(toHookErrorCode(serverError.code), serverError.message, {
      details,
      ...(serverError.path ? { path: serverError.path } : {}),
    });
  }
  const mapped = CODE_OF_CLOSE[code] ?? "UNAVAILABLE";
  const message =
    reason ||
    (code === WS_CLOSE_CODES.normal
      ? "the agent closed the connection"
      : code === WS_CLOSE_CODES.goingAway
        ? "the hook server is closing"
        : `the connection to the agent was lost (close code ${code})`);
  return new HookError(mapped, message, { details });
}
