/**
 * @a3s-lab/hooks-node/internal: plumbing the A3S packages, the demo and the benchmarks share
 * (the command-hook executor, shell quoting, gRPC status mapping, the host's environment
 * without its secrets, reading a file a repository may have planted, file tools confined to a
 * working directory). Hook authors, hosts and transports need none of it, and it may change in
 * any release.
 */

export { describeCommand } from "./command/command-definition.js";
export { CommandHook } from "./command/command-hook.js";
export { templateVariables } from "./command/template-variables.js";
export { fromStatus, grpcStatusOf, toStatus } from "./grpc/grpc-status.js";
export type { HostSecretUse } from "./host-secrets.js";
export { withoutHostSecrets } from "./host-secrets.js";
export type { ReadRegularFileOptions } from "./settings/read-regular-file.js";
export { readRegularFile } from "./settings/read-regular-file.js";
export type { ShellContext } from "./shell-quote.js";
export { quoteForContext, shellContextAt, shellEscaper, shellQuote } from "./shell-quote.js";
export type { WalkBudget, WalkFilesOptions } from "./workspace/walk-files.js";
export { SKIPPED_FOLDERS, walkFiles } from "./workspace/walk-files.js";
export type { WorkspacePathReason } from "./workspace/workspace-path-error.js";
export { WorkspacePathError } from "./workspace/workspace-path-error.js";
export type {
  OpenedEntry,
  OpenIntent,
  OpenOptions,
  WorkspaceRootOptions,
} from "./workspace/workspace-root.js";
export { MAX_SYMLINK_HOPS, WorkspaceRoot } from "./workspace/workspace-root.js";
