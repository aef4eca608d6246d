/**
 * @a3s-lab/hooks-claude-agent-sdk: A3S hooks inside a Claude Agent SDK session. The engine
 * becomes the `hooks` option of the SDK's `query()`.
 */

// ── For other libraries: the mapping, one direction at a time ─────────────────
export { fromSdkInput, toolResponseText } from "./from-sdk-input.js";
export type { ReadySdkEvent } from "./ready-events.js";
export { isReadyEvent, readyEvents, toReadyOutput } from "./ready-events.js";
export type { BridgedSdkEvent } from "./sdk-events.js";
export { bridgedEvents, isBridgedEvent } from "./sdk-events.js";
// ── For users ─────────────────────────────────────────────────────────────────
export type { AgentSdkHooks, AgentSdkHooksOptions } from "./to-agent-sdk-hooks.js";
export { createAgentSdkHook, toAgentSdkHooks } from "./to-agent-sdk-hooks.js";
export { PROMPT_REWRITE_REASON, toSdkOutput } from "./to-sdk-output.js";
