import { randomBytes } from "node:crypto";
import { HookEngine, type PreToolUseEvent } from "@a3s-lab/hooks-core";
import { createHookServer } from "@a3s-lab/hooks-node";
import { BenchError } from "../bench-error.js";
import { type ChildHandle, startChild } from "../cross/child-process.js";
import type { EchoHost } from "../cross/echo-host.js";

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
export async function startOurs(transport: "grpc" | "websocket"): Promise<OurRemoteSide> {
  const engine = new HookEngine();
  const token = randomBytes(24).toString("base64url");
  const server = await createHookServer({
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
