/**
 * @a3s-lab/box for Node: `A3sClient` with the gRPC transport of `@a3s-lab/hooks-node` and
 * the `A3S_ADDRESS` / `A3S_TOKEN` environment variables as defaults.
 */
import { createGrpcTransport } from "@a3s-lab/hooks-node/grpc-client";
import { A3sClientBase } from "./a3s-client.js";
import type { A3sClientOptions, ClientPlatform } from "./types.js";

const node: ClientPlatform = {
  env: (name) => process.env[name] || undefined,
  defaultTransport: createGrpcTransport,
  tokenHint: "set A3S_TOKEN or pass token",
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

// One curated list for both entries, so they cannot drift apart.
export * from "./common-exports.js";
// Node's WebSocket transport, on the ws package; browsers get the native one.
export { createWebSocketTransport } from "./node-websocket-transport.js";
