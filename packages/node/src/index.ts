// ── Remote hooks: the hook server an agent hosts, and the gRPC client transport ──

export { fromStatus, grpcStatusOf, toStatus } from "./grpc/grpc-status.js";
export type { GrpcTransportOptions } from "./grpc/grpc-transport.js";
export { createGrpcTransport } from "./grpc/grpc-transport.js";
export type { HooksProto } from "./grpc/hooks-proto.js";
export { hooksProtoPath, loadHooksProto } from "./grpc/hooks-proto.js";
export type { AgentCallContext, AgentService } from "./server/agent-service.js";
export type { Authenticator, Credentials } from "./server/authenticator.js";
export { createAuthenticator } from "./server/authenticator.js";
export type { HookServer, HookServerOptions } from "./server/create-hook-server.js";
export { createHookServer } from "./server/create-hook-server.js";
export type { AttachedStream, HookHubOptions, RemoteClientInfo } from "./server/hook-hub.js";
export { HookHub } from "./server/hook-hub.js";
export type { HubEvent, HubEventOf, HubEventType, HubListener } from "./server/hub-events.js";
export type { RateLimit } from "./server/rate-limiter.js";
export type { HookEventSink } from "./server/remote-client.js";
