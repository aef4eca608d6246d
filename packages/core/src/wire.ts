/**
 * @a3s-lab/hooks-core/wire: the wire form of hooks.proto, for transports. The message types and
 * their zod schemas, JSON frame parsing, the conversions between a `HookResponse` and its wire
 * message, the protocol's constants, and the client's `Transport` seam. Hook authors and hosts
 * need none of it: the engine never touches the wire.
 */

// ── For transports: the wire form of hooks.proto, and the client's transport seam ──

export { answersChecked } from "./engine/checked-answers.js";
export type {
  CallOptions,
  HookStream,
  HookStreamHandlers,
  Transport,
  TransportFactory,
  TransportOptions,
  UnaryCalls,
  UnaryMethod,
} from "./wire/transport.js";
export type {
  CancelMessage,
  CreateSessionRequest,
  CreateSessionResponse,
  DestroySessionRequest,
  DestroySessionResponse,
  ErrorMessage,
  ExecuteToolRequest,
  ExecuteToolResponse,
  GenerateEventMessage,
  GenerateProgress,
  GenerateRequest,
  GenerateResult,
  HelloMessage,
  HookConfigMessage,
  HookCounters,
  HookEventMessage,
  HookInfoMessage,
  HookMatcherMessage,
  HookResponseMessage,
  ListHooksRequest,
  ListHooksResponse,
  RegisterHookRequest,
  RegisterHookResponse,
  TokenUsageMessage,
  UnregisterHookRequest,
  UnregisterHookResponse,
  WelcomeMessage,
  WireMessageMap,
  WireMessageType,
} from "./wire/wire.js";
export { DEFAULT_HOOK_PORT, isWireId, PROTOCOL, WIRE_HEADERS, wireSchemas } from "./wire/wire.js";
export type { WireFrame } from "./wire/wire-frame.js";
export {
  MAX_FRAME_CHARS,
  parseWireFrame,
  parseWireMessage,
  WS_CLOSE_CODES,
} from "./wire/wire-frame.js";
export type { CheckedAnswer } from "./wire/wire-response.js";
export { fromHookResponse, readHookResponse, toHookResponse } from "./wire/wire-response.js";
