/**
 * @a3s-lab/hooks-node/internal: plumbing the A3S packages, the demo and the benchmarks share
 * (the command-hook executor, shell quoting, gRPC status mapping). Hook authors, hosts and
 * transports need none of it, and it may change in any release.
 */

export { describeCommand } from "./command/command-definition.js";
export { CommandHook } from "./command/command-hook.js";
export { templateVariables } from "./command/template-variables.js";
export { fromStatus, grpcStatusOf, toStatus } from "./grpc/grpc-status.js";
export type { ShellContext } from "./shell-quote.js";
export { quoteForContext, shellContextAt, shellEscaper, shellQuote } from "./shell-quote.js";
