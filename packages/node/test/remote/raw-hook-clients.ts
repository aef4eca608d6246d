/**
 * Hook clients that answer with whatever a test hands them, byte for byte: the hostile peers of
 * the hook server's tests. Each registers one PreToolUse hook `h` and answers every firing with
 * `answer(eventId, event)`; no SDK checks or bounds anything on the way.
 */
import { PROTOCOL } from "@a3s-lab/hooks-core/wire";
import { type ClientDuplexStream, credentials, Metadata } from "@grpc/grpc-js";
import { WebSocket } from "ws";
import { loadHooksProto } from "../../src/grpc/hooks-proto.js";

export interface RawHookOptions {
  token: string;
  clientId: string;
  /** Closed after the test (see `useHookServers`). */
  cleanup: (() => unknown)[];
  failBehavior?: "continue" | "block";
  /** Only tool calls of this tool reach the hook. */
  tool?: string;
}

/**
 * A gRPC client built from `hooks.proto` alone. `answer` returns the HookResponse as
 * `@grpc/proto-loader` takes it (enum names, `modified` as bytes); its own send limit is off, so
 * the server's limit is the one that counts.
 */
export async function rawGrpcHook(
  address: string,
  options: RawHookOptions,
  answer: (eventId: string, event: { payload?: Uint8Array }) => object,
): Promise<void> {
  const stub = new (loadHooksProto().HookServiceClient)(address, credentials.createInsecure(), {
    "grpc.max_send_message_length": -1,
  }) as never as Record<string, (...args: unknown[]) => unknown> & { close(): void };
  options.cleanup.push(() => stub.close());
  const md = new Metadata();
  md.set("authorization", `Bearer ${options.token}`);
  md.set("x-a3s-client-id", options.clientId);
  // The stream first: the server may hold hook calls until the client's stream is open.
  const call = stub.HookStream!.call(stub, md) as ClientDuplexStream<object, unknown>;
  options.cleanup.push(() => call.cancel());
  call.on("error", () => {});
  const initial = await new Promise<Metadata>((resolve) => call.once("metadata", resolve));
  const secret = initial.get("x-a3s-client-secret")[0];
  if (secret !== undefined) md.set("x-a3s-client-secret", secret);
  const fail = options.failBehavior === "block" ? "FAIL_BEHAVIOR_BLOCK" : "FAIL_BEHAVIOR_CONTINUE";
  const error = await new Promise((resolve) =>
    stub.RegisterHook!.call(
      stub,
      {
        eventType: "PreToolUse",
        hookId: "h",
        config: { failBehavior: fail },
        ...(options.tool ? { matcher: { tool: options.tool } } : {}),
      },
      md,
      (e: unknown) => resolve(e),
    ),
  );
  if (error) throw error;
  call.on("data", (event: { eventId: string; payload?: Uint8Array }) => {
    try {
      call.write(answer(event.eventId, event));
    } catch {
      // Not encodable as hooks.proto: such an answer cannot reach the server over gRPC.
    }
  });
}

/**
 * A WebSocket client speaking the JSON frames. `answer` returns the whole text of the
 * HookResponse frame, so it may be anything: JSON nested deeper than `JSON.stringify` could
 * write, keys an object literal would swallow (`__proto__`), wrong types, megabytes.
 */
export async function rawWsHook(
  url: string,
  options: RawHookOptions,
  answer: (eventId: string, event: { payload?: Record<string, unknown> }) => string,
): Promise<void> {
  const socket = new WebSocket(url, PROTOCOL);
  options.cleanup.push(() => socket.terminate());
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("open", resolve));
  const registered = new Promise<void>((resolve, reject) => {
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Record<string, string> & {
        payload?: Record<string, unknown>;
      };
      if (frame.type === "Welcome") {
        socket.send(
          JSON.stringify({
            type: "RegisterHookRequest",
            id: "1",
            eventType: "PreToolUse",
            hookId: "h",
            config: { failBehavior: options.failBehavior ?? "continue" },
            ...(options.tool ? { matcher: { tool: options.tool } } : {}),
          }),
        );
      } else if (frame.type === "RegisterHookResponse") resolve();
      else if (frame.type === "Error") reject(new Error(String(frame.message)));
      else if (frame.type === "HookEvent") socket.send(answer(frame.eventId!, frame));
    });
  });
  socket.send(
    JSON.stringify({
      type: "Hello",
      clientId: options.clientId,
      token: options.token,
      protocol: PROTOCOL,
    }),
  );
  await registered;
}
