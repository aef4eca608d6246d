import { randomBytes } from "node:crypto";
import { HookEngine, type PreToolUseEvent } from "@a3s-lab/hooks-core";
import { createHookServer, type HookServerOptions } from "@a3s-lab/hooks-node";
import { BenchError } from "../bench-error.js";
import { type ChildHandle, type ChildName, startChild } from "../cross/child-process.js";
import type { EchoHost } from "../cross/echo-host.js";

/** A raw echo host with its peer process, and how to stop both. */
export interface EchoPair {
  host: EchoHost;
  close(): Promise<void>;
}

/** Start a raw echo host and its peer in another process; both stop on `close()`. */
export async function startEcho(
  start: () => Promise<EchoHost>,
  peer: ChildName,
): Promise<EchoPair> {
  const host = await start();
  let child: ChildHandle | undefined;
  try {
    child = await startChild(peer, { args: ["--port", String(host.port)] });
    await host.waitForPeer();
    const peerChild = child;
    const close = async () => {
      await peerChild.stop();
      await host.close();
    };
    return { host, close };
  } catch (error) {
    await child?.stop();
    await host.close();
    throw error;
  }
}

/** One round trip of the raw echo, failing unless the same number of bytes came back. */
export async function checkedRoundTrip(host: EchoHost, bytes: Uint8Array): Promise<void> {
  const echo = await host.roundTrip(bytes);
  if (echo.byteLength !== bytes.byteLength) {
    throw new BenchError(
      "TASK_FAILED",
      `echo: sent ${bytes.byteLength} bytes, got ${echo.byteLength} back`,
    );
  }
}

/** Our agent side, running: the engine the remote hook is registered on, and how to stop. */
export interface OurRemoteSide {
  engine: HookEngine;
  close(): Promise<void>;
}

/**
 * Our agent side: an engine, the hook server on 127.0.0.1 with a token, and an `A3sClient`
 * process with one PreToolUse hook. Over `"websocket"` the client is given the server's
 * `ws://` URL, which the gRPC transport would refuse, so the socket is known to be the one
 * measured.
 */
export async function startOurs(
  transport: "grpc" | "websocket",
  serverOptions: Partial<Omit<HookServerOptions, "engine" | "host" | "port" | "token">> = {},
): Promise<OurRemoteSide> {
  const engine = new HookEngine();
  const token = randomBytes(24).toString("base64url");
  const server = await createHookServer({
    ...serverOptions,
    engine,
    host: "127.0.0.1",
    port: 0,
    token,
  });
  let child: ChildHandle | undefined;
  try {
    const address = transport === "websocket" ? server.webSocketUrl : server.address;
    if (address === undefined) {
      throw new BenchError("TASK_FAILED", "hook server: the WebSocket endpoint is off");
    }
    const registered = new Promise<void>((resolve) => {
      const off = engine.on("registered", () => {
        off();
        resolve();
      });
    });
    child = await startChild("hook-client", {
      args: ["--websocket", transport === "websocket" ? "1" : "0"],
      env: { A3S_ADDRESS: address, A3S_TOKEN: token },
    });
    await registered;
    const clientChild = child;
    const close = async () => {
      await clientChild.stop();
      await server.close();
    };
    return { engine, close };
  } catch (error) {
    await child?.stop();
    await server.close();
    throw error;
  }
}

/** A fresh firing of the 1 KB event: the server pairs answers with firings by event id. */
export function firing(template: PreToolUseEvent, n: number, session: string): PreToolUseEvent {
  return { ...template, eventId: `bench-${n}`, sessionId: session };
}

/** Fire once and fail unless the one remote hook answered: both sides must do the work. */
export async function probe(engine: HookEngine, template: PreToolUseEvent): Promise<void> {
  const result = await engine.fire(firing(template, 0, "probe"));
  if (result.outcomes.length !== 1 || result.outcomes[0]!.status !== "ok") {
    throw new BenchError("TASK_FAILED", `remote hook: ${JSON.stringify(result.outcomes)}`);
  }
}
