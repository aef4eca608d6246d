/**
 * @a3s-lab/hooks-node/internal: plumbing the A3S packages, the demo and the benchmarks share
 * (the command-hook executor, shell quoting, gRPC status mapping, the host's environment
 * without its secrets). Hook authors, hosts and
 * transports need none of it, and it may change in any release. File access confined to a
 * working directory is `@a3s-lab/hooks-node/workspace`.
 */

export { fromStatus, grpcStatusOf, toStatus } from "./grpc/grpc-status.js";
export { describeCommand } from "./handlers/command/command-definition.js";
export type { CommandHookRunOptions } from "./handlers/command/command-hook.js";
export { CommandHook } from "./handlers/command/command-hook.js";
export { templateVariables } from "./handlers/command/template-variables.js";
export type { HookDialect } from "./handlers/hook-dialect.js";
export type { ShellContext } from "./shell/index.js";
export { quoteForContext, shellContextAt, shellEscaper, shellQuote } from "./shell/index.js";
export type { HostSecretUse } from "./support/host-secrets.js";
export { withoutHostSecrets } from "./support/host-secrets.js";
