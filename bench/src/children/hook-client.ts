/**
 * Our remote-hook peer: an `A3sClient` (address and token from A3S_ADDRESS and A3S_TOKEN, as a
 * user's would be) with one PreToolUse hook that lets every event through. Prints its ready line
 * once the client is connected. `--websocket 1` connects over WebSocket (the transport browsers
 * use) instead of gRPC.
 */
import { A3sClient, createWebSocketTransport } from "@a3s-lab/box";
import { exitWhenStdinCloses, intFlags } from "./child-args.js";

const { websocket } = intFlags(process.argv.slice(2), {
  websocket: { min: 0, max: 1, default: 0 },
});
const client = new A3sClient(websocket === 1 ? { transport: createWebSocketTransport } : {});
client.registerHook("PreToolUse", () => ({ action: "continue" }));
exitWhenStdinCloses(async () => {
  await client.close();
});
await client.ready();
process.stdout.write(
  `${JSON.stringify({ ready: true, pid: process.pid, clientId: client.clientId, websocket: websocket === 1 })}\n`,
);
