/**
 * @a3s-lab/hooks-node/grpc-client: only the gRPC client transport of `A3sClient`, for SDKs
 * that talk to an agent and host no hook server. Importing it loads `@grpc/grpc-js`,
 * `@grpc/proto-loader` and core, not the server, the settings loader, the CLI or YAML.
 *
 * @example
 * ```ts
 * import { createGrpcTransport } from "@a3s-lab/hooks-node/grpc-client";
 * ```
 */
export type { GrpcTransportOptions } from "./grpc/grpc-transport.js";
export { createGrpcTransport } from "./grpc/grpc-transport.js";
export { hooksProtoPath } from "./grpc/hooks-proto.js";
