// ── Command hooks: shell commands that speak Claude Code's hook protocol ──────

export type {
  CommandHookDefinition,
  ExecCommandDefinition,
  ShellCommandDefinition,
} from "./command/command-definition.js";
export { commandHookDefinitionSchema, describeCommand } from "./command/command-definition.js";
export type {
  CommandHookOptions,
  CommandRegistrationSpec,
  CommandRunReport,
} from "./command/command-hook.js";
export { CommandHook } from "./command/command-hook.js";
export {
  commandHookRegistration,
  createCommandExecutor,
  createCommandHook,
} from "./command/create-command-hook.js";
export type { HookInput, HookInputOptions } from "./command/hook-input.js";
export { hookInputSchema, toHookInput } from "./command/hook-input.js";
export { hookOutputSchema } from "./command/hook-output-schema.js";
export { TEMPLATE_VARIABLES, templateVariables } from "./command/template-variables.js";
export { linearRegex } from "./linear-regex.js";
export type { ShellContext } from "./shell-quote.js";
export { quoteForContext, shellContextAt, shellEscaper, shellQuote } from "./shell-quote.js";

// ── Audit: the engine's (or a client's) decisions as a JSON Lines file ────────────

export type { AuditLog, AuditLogOptions } from "./audit/audit-log.js";
export { writeAuditLog } from "./audit/audit-log.js";
export type { JsonlWriterOptions } from "./audit/jsonl-writer.js";
export { JsonlWriter } from "./audit/jsonl-writer.js";

// ── Settings files: Claude Code's and the seeds' locations and shapes, trust ──────

export type {
  AppliedHook,
  ApplyHookSettingsOptions,
  SettingsHandle,
  SettingsPlan,
  SkippedHook,
  SkipReason,
} from "./settings/apply-hook-settings.js";
export {
  applyHookSettings,
  engineOptionsFromSettings,
  planHookSettings,
} from "./settings/apply-hook-settings.js";
export type { FrontmatterOptions } from "./settings/frontmatter.js";
export { parseFrontmatterHooks } from "./settings/frontmatter.js";
export type {
  HookSettings,
  ProjectTrustState,
  SettingsFileInfo,
  SettingsHook,
  SettingsScope,
} from "./settings/hook-settings.js";
export { settingsJsonSchemas } from "./settings/json-schemas.js";
export type { LoadHookSettingsOptions } from "./settings/load-hook-settings.js";
export {
  loadHookSettings,
  PROJECT_SETTINGS_FILES,
  USER_SETTINGS_FILES,
} from "./settings/load-hook-settings.js";
export type { ProjectTrustOptions, TrustedProject } from "./settings/project-trust.js";
export { isProjectTrusted, trustProject, untrustProject } from "./settings/project-trust.js";
export type { ProblemSeverity, SettingsProblem } from "./settings/settings-problem.js";
export { displayPath, formatProblem } from "./settings/settings-problem.js";
export type { SettingsOptions } from "./settings/settings-schema.js";
export { settingsFileSchema } from "./settings/settings-schema.js";
export { trustStorePath } from "./settings/trust-store.js";

// ── The a3s-hooks CLI, for hosts that embed it ────────────────────────────────

export type { CliIo } from "./cli/cli-context.js";
export type { CliErrorCode } from "./cli/cli-error.js";
export { CliError } from "./cli/cli-error.js";
export { runCli } from "./cli/run-cli.js";

// ── Remote hooks: the hook server an agent hosts (gRPC and WebSocket), the gRPC client ──

// Defined by the protocol in core; kept here for code that imported it from this package.
export { WS_CLOSE_CODES } from "@a3s-lab/hooks-core";
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
export type { HttpHandler } from "./server/ws-http-server.js";
export type { WebSocketOptions } from "./server/ws-options.js";
