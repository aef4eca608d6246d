/**
 * @a3s-lab/box for Node: `A3sClient` with the gRPC transport of `@a3s-lab/hooks-node` and
 * the `A3S_ADDRESS` / `A3S_TOKEN` environment variables as defaults.
 */
import { createGrpcTransport } from "@a3s-lab/hooks-node";
import { A3sClientBase } from "./a3s-client.js";
import type { A3sClientOptions, ClientPlatform } from "./types.js";

const node: ClientPlatform = {
  env: (name) => process.env[name] || undefined,
  defaultTransport: createGrpcTransport,
};

/**
 * Register hooks with an A3S agent; they run here, in your process.
 *
 * @example
 * ```ts
 * import { A3sClient } from "@a3s-lab/box";
 *
 * const client = new A3sClient(); // A3S_ADDRESS, A3S_TOKEN
 * client.registerHook("PreToolUse", async (event) => {
 *   if (event.tool === "Bash" && String(event.args.command).includes("rm -rf /")) {
 *     return { action: "block", reason: "Dangerous command blocked by security policy" };
 *   }
 *   return { action: "continue" };
 * });
 * ```
 */
export class A3sClient extends A3sClientBase {
  constructor(options: A3sClientOptions = {}) {
    super(options, node);
  }
}

export type { WebSocketTransportOptions } from "@a3s-lab/hooks-browser";
// ── For SDK users ──────────────────────────────────────────────────────────────
export type {
  AuditEvent,
  AuditLevel,
  ContextWarningEvent,
  ExecuteToolResponse,
  FailBehavior,
  GenerateEndEvent,
  GenerateEventMessage,
  GenerateProgress,
  GenerateResult,
  GenerateStartEvent,
  HookContext,
  HookEventMap,
  HookEventName,
  ModelConfig,
  NotificationEvent,
  PermissionDeniedEvent,
  PermissionGrantedEvent,
  PermissionRequestEvent,
  PostCompactEvent,
  PostToolUseEvent,
  PostToolUseFailureEvent,
  PreCompactEvent,
  PreToolUseEvent,
  SessionEndEvent,
  SessionStartEvent,
  SkillLoadEvent,
  SkillUnloadEvent,
  StopEvent,
  SubagentStartEvent,
  SubagentStopEvent,
  TokenUsage,
  ToolArgs,
  ToolMatcher,
  ToolResult,
  Transport,
  TransportFactory,
  TransportOptions,
  UserPromptSubmitEvent,
} from "@a3s-lab/hooks-core";
export { DEFAULT_HOOK_PORT, HookError } from "@a3s-lab/hooks-core";
// ── For other libraries: platforms and transports ─────────────────────────────
export { A3sClientBase } from "./a3s-client.js";
export type { A3sClientEventName, A3sClientEvents } from "./client-events.js";
export { HookEvent, HookResponse } from "./hook-values.js";
export { createWebSocketTransport } from "./node-websocket-transport.js";
export type {
  A3sClientOptions,
  ClientPlatform,
  ConnectionState,
  HandlerOrOptions,
  RemoteHookConfig,
  RemoteHookContext,
  RemoteHookHandler,
  RemoteHookInfo,
  RemoteHookOptions,
  TemporaryHook,
} from "./types.js";
