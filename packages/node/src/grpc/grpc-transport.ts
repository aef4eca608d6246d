import { HookError } from "@a3s-lab/hooks-core";
import { callAborted as aborted, checkPlaintextHost } from "@a3s-lab/hooks-core/internal";
import {
  type CallOptions,
  type GenerateEventMessage,
  type GenerateRequest,
  type HookStream,
  type HookStreamHandlers,
  isWireId,
  type Transport,
  type TransportOptions,
  type UnaryCalls,
  type UnaryMethod,
  WIRE_HEADERS,
  type WireMessageType,
} from "@a3s-lab/hooks-core/wire";
import {
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  type ClientDuplexStream,
  type ClientReadableStream,
  credentials as grpcCredentials,
  Metadata,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { fromStatus } from "./grpc-status.js";
import { loadHooksProto } from "./hooks-proto.js";
import { fromProto, toProto } from "./wire-codec.js";

/** Options of `createGrpcTransport`. */
export interface GrpcTransportOptions extends TransportOptions {
  /**
   * TLS and the like (`credentials.createSsl()`). Default: plaintext, which only an address
   * on this machine accepts unless `allowPlaintextRemote` is set: `localhost`, 127.0.0.0/8 or
   * `[::1]`, written in that plain form (no trailing dot, no `dns://<server>/` prefix), or a
   * `unix:` socket.
   */
  credentials?: ChannelCredentials;
  /**
   * Extra `@grpc/grpc-js` channel options; they win over the transport's own. Without TLS the
   * transport sets `"grpc.enable_http_proxy": 0`, so the `grpc_proxy` / `https_proxy` /
   * `http_proxy` variables never route plaintext (token included) through a proxy; pass
   * `"grpc.enable_http_proxy": 1` here to go through one anyway.
   */
  channelOptions?: ChannelOptions;
  /** Largest event accepted from the agent. Default 64 MiB. */
  maxReceiveMessageBytes?: number;
}

const TYPES: Record<UnaryMethod, [WireMessageType, WireMessageType, "hooks" | "agent"]> = {
  RegisterHook: ["RegisterHookRequest", "RegisterHookResponse", "hooks"],
  UnregisterHook: ["UnregisterHookRequest", "UnregisterHookResponse", "hooks"],
  ListHooks: ["ListHooksRequest", "ListHooksResponse", "hooks"],
  CreateSession: ["CreateSessionRequest", "CreateSessionResponse", "agent"],
  DestroySession: ["DestroySessionRequest", "DestroySessionResponse", "agent"],
  ExecuteTool: ["ExecuteToolRequest", "ExecuteToolResponse", "agent"],
};

type Callback = (error: ServiceError | null, response: unknown) => void;
type Stub = Client & Record<string, (...args: unknown[]) => unknown>;

/**
 * `host:port` or `[v6]:port`, optionally after `dns:` or `dns:///`: the targets whose host is
 * checked. A `dns://<server>/` target is not among them: grpc-js can send its lookups to that
 * server, whatever the host.
 */
const HOST_PORT = /^(?:dns:(?:\/\/\/)?)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/i;

/**
 * The host of a gRPC target, or the whole target when it has another form, which then counts
 * as another machine. (A unix socket is always this machine and is not asked about.) A host a
 * URL parser would rewrite (`127.0.0.1.`, `127.1`) is returned as written, so it is not taken
 * for loopback: grpc-js hands it to the system resolver as written, which may ask DNS.
 */
function targetHost(address: string): string {
  const host = HOST_PORT.exec(address)?.[1];
  if (host === undefined) return address;
  try {
    const parsed = new URL(`http://${host}`).hostname;
    return parsed === host.toLowerCase() ? parsed : host;
  } catch {
    return host;
  }
}

/**
 * The gRPC transport of `A3sClient` in Node: HookService and AgentService of `hooks.proto`
 * over one `@grpc/grpc-js` channel, with the token and client id on every call. The resume
 * secret the agent gives the hook stream is kept in memory only and presented on every later
 * call and stream, so nobody who merely knows the client id can act for this client.
 *
 * @example
 * ```ts
 * import { A3sClient } from "@a3s-lab/box";
 * import { createGrpcTransport } from "@a3s-lab/hooks-node";
 * import { credentials } from "@grpc/grpc-js";
 *
 * const client = new A3sClient({
 *   address: "agent.internal:16300",
 *   transport: (o) => createGrpcTransport({ ...o, credentials: credentials.createSsl() }),
 * });
 * ```
 */
export function createGrpcTransport(options: GrpcTransportOptions): Transport {
  if (typeof options?.address !== "string" || options.address === "") {
    throw new HookError(
      "INVALID_CONFIG",
      "options.address: expected host:port, like 127.0.0.1:16300",
      {
        path: ["options", "address"],
      },
    );
  }
  if (!isWireId(options.clientId)) {
    throw new HookError(
      "INVALID_CONFIG",
      "options.clientId: expected 1 to 100 of A-Z a-z 0-9 . _ -",
      {
        path: ["options", "clientId"],
      },
    );
  }
  if (!options.credentials && !/^unix(-abstract)?:/i.test(options.address)) {
    checkPlaintextHost(
      targetHost(options.address),
      options,
      "pass TLS credentials (credentials: credentials.createSsl())",
    );
  }
  const proto = loadHooksProto();
  const creds = options.credentials ?? grpcCredentials.createInsecure();
  const channelOptions: ChannelOptions = {
    "grpc.max_receive_message_length": options.maxReceiveMessageBytes ?? 64 * 1024 * 1024,
    "grpc.keepalive_time_ms": 10_000,
    "grpc.keepalive_timeout_ms": 10_000,
    "grpc.keepalive_permit_without_calls": 1,
    // The client runs its own reconnect loop with backoff; keep the channel's own short.
    "grpc.initial_reconnect_backoff_ms": 100,
    "grpc.max_reconnect_backoff_ms": 2000,
    // grpc-js follows the proxy variables even to localhost unless no_proxy names it, and a
    // proxy in the path of plaintext reads the token and every event.
    ...(creds._isSecure() ? {} : { "grpc.enable_http_proxy": 0 }),
    ...options.channelOptions,
  };
  const hooks = new proto.HookServiceClient(options.address, creds, channelOptions) as Stub;
  const agent = new proto.AgentServiceClient(options.address, creds, {
    ...channelOptions,
    channelOverride: hooks.getChannel(),
  }) as Stub;
  const streamClosers = new Set<() => void>();
  let closed = false;
  // The agent's proof of who we are, from the latest accepted hook stream (a restarted agent
  // gives a new one).
  let clientSecret: string | undefined;

  const metadata = () => {
    const md = new Metadata();
    if (options.token !== undefined) md.set(WIRE_HEADERS.authorization, `Bearer ${options.token}`);
    md.set(WIRE_HEADERS.clientId, options.clientId);
    if (clientSecret !== undefined) md.set(WIRE_HEADERS.clientSecret, clientSecret);
    return md;
  };
  const gone = () => new HookError("UNAVAILABLE", "the transport is closed");

  return {
    call<M extends UnaryMethod>(
      method: M,
      request: UnaryCalls[M]["request"],
      callOptions: CallOptions = {},
    ): Promise<UnaryCalls[M]["response"]> {
      const [requestType, responseType, service] = TYPES[method];
      const { signal } = callOptions;
      return new Promise((resolve, reject) => {
        if (closed) return reject(gone());
        if (signal?.aborted) return reject(aborted(signal));
        const stub = service === "hooks" ? hooks : agent;
        const onAbort = () => call.cancel();
        const call = stub[method]!.call(stub, toProto(requestType, request as never), metadata(), ((
          error,
          response,
        ) => {
          signal?.removeEventListener("abort", onAbort);
          if (error) {
            return reject(
              error.code === status.CANCELLED && signal?.aborted
                ? aborted(signal)
                : fromStatus(error),
            );
          }
          const checked = fromProto(responseType, response);
          if (checked.success) resolve(checked.data as UnaryCalls[M]["response"]);
          else reject(checked.error);
        }) as Callback) as { cancel(): void };
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },

    async *generate(
      request: GenerateRequest,
      callOptions: CallOptions = {},
    ): AsyncGenerator<GenerateEventMessage> {
      if (closed) throw gone();
      const { signal } = callOptions;
      if (signal?.aborted) throw aborted(signal);
      const call = agent.Generate!.call(
        agent,
        toProto("GenerateRequest", request),
        metadata(),
      ) as ClientReadableStream<unknown>;
      const onAbort = () => call.cancel();
      signal?.addEventListener("abort", onAbort, { once: true });
      let done = false;
      try {
        for await (const message of call) {
          const checked = fromProto("GenerateEvent", message);
          if (!checked.success) throw checked.error;
          yield checked.data;
        }
        done = true;
      } catch (error) {
        if (signal?.aborted) throw aborted(signal);
        throw HookError.is(error) ? error : fromStatus(error as ServiceError);
      } finally {
        signal?.removeEventListener("abort", onAbort);
        if (!done) call.cancel();
      }
    },

    openHookStream(
      handlers: HookStreamHandlers,
      callOptions: CallOptions = {},
    ): Promise<HookStream> {
      return new Promise((resolve, reject) => {
        if (closed) return reject(gone());
        const { signal } = callOptions;
        if (signal?.aborted) return reject(aborted(signal));
        const call = hooks.HookStream!.call(hooks, metadata()) as ClientDuplexStream<
          unknown,
          unknown
        >;
        let opened = false;
        let ended = false;
        let byUs = false;
        const stream: HookStream = {
          resumed: false,
          send(response) {
            if (ended) return;
            try {
              call.write(toProto("HookResponse", response));
            } catch {
              // The stream is closing; the agent already stopped waiting for this answer.
            }
          },
          close() {
            byUs = true;
            call.cancel();
          },
        };
        const onAbort = () => stream.close();
        signal?.addEventListener("abort", onAbort, { once: true });
        streamClosers.add(stream.close);
        call.on("metadata", (md: Metadata) => {
          const resumed = md.get(WIRE_HEADERS.resumed)[0];
          // Only the server's acceptance carries this header; trailers-only failures do not.
          if (opened || resumed === undefined) return;
          opened = true;
          const secret = md.get(WIRE_HEADERS.clientSecret)[0];
          if (typeof secret === "string" && secret !== "") clientSecret = secret;
          resolve({ ...stream, resumed: resumed === "true" });
        });
        call.on("data", (message: unknown) => {
          const checked = fromProto("HookEvent", message);
          if (checked.success) handlers.onEvent(checked.data);
          else handlers.onInvalid?.(checked.error, message);
        });
        // Errors also arrive as the final status below; this listener only keeps them handled.
        call.on("error", () => {});
        call.on("status", (s: { code: status; details: string; metadata: Metadata }) => {
          ended = true;
          streamClosers.delete(stream.close);
          signal?.removeEventListener("abort", onAbort);
          let error: HookError | undefined;
          if (byUs) error = undefined;
          else if (s.code === status.OK)
            error = new HookError("UNAVAILABLE", "the agent ended the hook stream");
          else error = fromStatus(s);
          if (opened) handlers.onClose(error);
          else if (byUs && signal?.aborted) reject(aborted(signal));
          else
            reject(
              error ?? new HookError("UNAVAILABLE", "the hook stream closed before it opened"),
            );
        });
      });
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const closeStream of streamClosers) closeStream();
      hooks.close();
      agent.close();
    },
  };
}
