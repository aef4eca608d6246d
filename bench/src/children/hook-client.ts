/**
 * Our remote-hook peer: an `A3sClient` (address and token from A3S_ADDRESS and A3S_TOKEN, as a
 * user's would be) with one PreToolUse hook that lets every event through. Prints its ready line
 * once the client is connected.
 */
import { A3sClient } from "@a3s-lab/box";
import { exitWhenStdinCloses } from "./child-args.js";

const client = new A3sClient();
client.registerHook("PreToolUse", () => ({ action: "continue" }));
exitWhenStdinCloses(async () => {
  await client.close();
});
await client.ready();
process.stdout.write(
  `${JSON.stringify({ ready: true, pid: process.pid, clientId: client.clientId })}\n`,
);
