/** The raw WebSocket baseline's peer: connect to the host and echo every message. */
import { echoOverWs } from "../cross/raw-ws.js";
import { exitWhenStdinCloses, intFlags } from "./child-args.js";

const { port } = intFlags(process.argv.slice(2), { port: { min: 1, max: 65_535, default: 0 } });
const socket = await echoOverWs(port);
exitWhenStdinCloses(() => socket.terminate());
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid })}\n`);
