/** The raw WebSocket baseline's peer: connect to the host and echo every message. */

import { BenchError } from "../bench-error.js";
import { echoOverWs } from "../cross/raw-ws.js";
import { exitWhenStdinCloses, intFlags } from "./child-args.js";

const { port } = intFlags(process.argv.slice(2), {
  port: { min: 1, max: 65_535, default: 0 },
});
if (port === 0) throw new BenchError("INVALID_OPTION", "--port: required");
const socket = await echoOverWs(port);
exitWhenStdinCloses(() => socket.terminate());
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid })}\n`);
