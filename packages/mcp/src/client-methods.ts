import {
  ClientNotificationSchema,
  ClientRequestSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The client requests the proxy forwards to the server as they are, besides `initialize` and
 * `tools/call` (which it answers itself) and `ping` (which the SDK answers). Anything else, a
 * method the MCP specification does not name, or a known one spelled another way (`Tools/Call`,
 * `tools/call `), is refused: a server may read method names loosely, and a name the proxy
 * does not know is a call it cannot guard.
 */
export const FORWARDED_REQUESTS: ReadonlySet<string> = new Set([
  "completion/complete",
  "logging/setLevel",
  "prompts/get",
  "prompts/list",
  "resources/list",
  "resources/read",
  "resources/subscribe",
  "resources/templates/list",
  "resources/unsubscribe",
  "tasks/cancel",
  "tasks/get",
  "tasks/list",
  "tasks/result",
  "tools/list",
]);

/**
 * The client notifications the proxy forwards (after the SDK has taken its own: `initialized`,
 * `cancelled`, `progress`). Any other notification is dropped: a notification has no answer to
 * refuse with, and one named like a request (`tools/call` without an id) must never reach a
 * server that might run it.
 */
export const FORWARDED_NOTIFICATIONS: ReadonlySet<string> = new Set([
  "notifications/roots/list_changed",
  "notifications/tasks/status",
]);

/**
 * Check a client request before it is forwarded: its method is one of
 * {@link FORWARDED_REQUESTS} and its params have the shape the specification gives that
 * method. Throws the JSON-RPC error the client gets (`MethodNotFound`, `InvalidParams`).
 */
export function checkForwardedRequest(request: { method: string; params?: unknown }): void {
  if (!FORWARDED_REQUESTS.has(request.method)) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `method not found: ${JSON.stringify(request.method.slice(0, 200))} is not a request the hook proxy forwards`,
    );
  }
  const parsed = ClientRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw new McpError(ErrorCode.InvalidParams, `invalid params for ${request.method}`);
  }
}

/** True when a client notification may go on to the server (see {@link FORWARDED_NOTIFICATIONS}). */
export function forwardsNotification(notification: { method: string; params?: unknown }): boolean {
  return (
    FORWARDED_NOTIFICATIONS.has(notification.method) &&
    ClientNotificationSchema.safeParse(notification).success
  );
}
