import * as grpc from "@grpc/grpc-js";
import { BenchError } from "../bench-error.js";
import { type EchoHost, peerGate, ReplyQueue } from "./echo-host.js";

const identity = (b: Buffer): Buffer => b;

/** One bidirectional method carrying raw bytes: no schema, no codec, nothing to measure but gRPC. */
export const ECHO_PATH = "/a3s.bench.Echo/Stream";

const echoService: grpc.ServiceDefinition = {
  stream: {
    path: ECHO_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

/**
 * The gRPC baseline's agent side: a grpc-js server on 127.0.0.1 (insecure: loopback only,
 * benchmark only) whose one bidi stream is opened by the peer, the way a hook client opens
 * `HookStream`. The host writes down the stream and reads the echo back.
 *
 * @example
 * ```ts
 * const host = await startRawGrpcHost();
 * const peer = await startChild("grpc-echo-client", { args: ["--port", String(host.port)] });
 * await host.waitForPeer();
 * await host.roundTrip(new Uint8Array(1024));
 * ```
 */
export async function startRawGrpcHost(): Promise<EchoHost> {
  const server = new grpc.Server();
  const replies = new ReplyQueue();
  const gate = peerGate("raw gRPC echo");
  let call: grpc.ServerDuplexStream<Buffer, Buffer> | undefined;
  server.addService(echoService, {
    stream: (duplex: grpc.ServerDuplexStream<Buffer, Buffer>) => {
      if (call) {
        duplex.end();
        return;
      }
      call = duplex;
      duplex.on("data", (bytes: Buffer) => replies.deliver(bytes));
      duplex.on("error", (error: Error) =>
        replies.failAll(new BenchError("CHILD_FAILED", `raw gRPC echo: ${error.message}`)),
      );
      duplex.on("end", () =>
        replies.failAll(
          new BenchError("CHILD_FAILED", "raw gRPC echo: the peer closed the stream"),
        ),
      );
      gate.open();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error
        ? reject(
            new BenchError("CHILD_FAILED", `raw gRPC echo: ${error.message}`, { cause: error }),
          )
        : resolve(bound),
    ),
  );
  return {
    port,
    waitForPeer: (timeoutMs) => gate.promise(timeoutMs),
    roundTrip(bytes) {
      if (!call)
        return Promise.reject(new BenchError("CHILD_FAILED", "raw gRPC echo: no peer yet"));
      const reply = replies.push();
      call.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        call?.end();
        server.tryShutdown(() => resolve());
        // A peer that does not hang up must not hold the run open.
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1000).unref();
      }),
  };
}

/** The peer: open the stream and write every message straight back. Used by the child script. */
export function echoOverGrpc(port: number): grpc.Client {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = client.makeBidiStreamRequest(ECHO_PATH, identity, identity);
  call.on("data", (bytes: Buffer) => call.write(bytes));
  call.on("error", () => undefined);
  call.on("end", () => call.end());
  return client;
}
