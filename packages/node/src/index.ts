/**
 * @a3s-lab/hooks-node: A3S hooks for Node. Shell-command hooks, settings files, the JSON Lines
 * audit log, the `a3s-hooks` CLI, and the gRPC/WebSocket hook server an agent hosts. The gRPC
 * client alone is `@a3s-lab/hooks-node/grpc-client`; OpenTelemetry is `@a3s-lab/hooks-node/otel`;
 * plumbing shared between the A3S packages is in `@a3s-lab/hooks-node/internal`.
 */

// ── For hook authors: command hooks, the protocol they speak, templates ──────────

export type {
  CommandHookDefinition,
  ExecCommandDefinition,
  ShellCommandDefinition,
} from "./handlers/command/command-definition.js";
export { commandHookDefinitionSchema } from "./handlers/command/command-definition.js";
export type {
  CommandHookOptions,
  CommandRegistrationSpec,
  CommandRunReport,
} from "./handlers/command/command-hook.js";
export { commandHookRegistration } from "./handlers/command/create-command-hook.js";
export { hookOutputSchema } from "./handlers/command/hook-output-schema.js";
export { TEMPLATE_VARIABLES } from "./handlers/command/template-variables.js";
export type { HookInput, HookInputOptions } from "./handlers/hook-input.js";
export { toHookInput } from "./handlers/hook-input.js";
export { hookInputSchema } from "./handlers/hook-input-schema.js";

// ── For hosts: settings files, trust, the audit log, the CLI, the hook server ───────

export type { AuditLog, AuditLogOptions } from "./audit/audit-log.js";
export { writeAuditLog } from "./audit/audit-log.js";
export type { JsonlWriterOptions } from "./audit/jsonl-writer.js";
export { JsonlWriter } from "./audit/jsonl-writer.js";
export type { CliIo } from "./cli/cli-context.js";
export type { CliErrorCode } from "./cli/cli-error.js";
export { CliError } from "./cli/cli-error.js";
export { runCli } from "./cli/run-cli.js";
export type { AgentCallContext, AgentService } from "./hub/agent-service.js";
export type { Authenticator, Credentials } from "./hub/authenticator.js";
export { createAuthenticator } from "./hub/authenticator.js";
export type {
  AttachedStream,
  ClientCredentials,
  HookHubOptions,
  RemoteClientInfo,
} from "./hub/hook-hub.js";
export { HookHub } from "./hub/hook-hub.js";
export type {
  HubEvent,
  HubEventOf,
  HubEvents,
  HubEventType,
  HubListener,
} from "./hub/hub-events.js";
export type { RateLimit } from "./hub/rate-limiter.js";
export type { HookEventSink } from "./hub/remote-client.js";
export type { HookServer, HookServerOptions } from "./server/create-hook-server.js";
export { createHookServer } from "./server/create-hook-server.js";
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
  HookFormatName,
  HookOrigin,
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
export type { ManagedPolicy, PluginOnlySurface } from "./settings/managed-settings.js";
export { defaultManagedSettingsFiles } from "./settings/managed-settings.js";
export type { PermissionRuleContext, PermissionRuleTest } from "./settings/permission-rule.js";
export { compilePermissionRule } from "./settings/permission-rule.js";
export type { PluginOrigin } from "./settings/plugins.js";
export type { TrustedScript } from "./settings/project-scripts.js";
export type { ProjectTrustOptions, TrustedProject } from "./settings/project-trust.js";
export { isProjectTrusted, trustProject, untrustProject } from "./settings/project-trust.js";
export type { SessionEnvFilesOptions } from "./settings/session-env-file.js";
export { ENV_FILE_EVENTS, SessionEnvFiles } from "./settings/session-env-file.js";
export type { ProblemSeverity, SettingsProblem } from "./settings/settings-problem.js";
export { displayPath, formatProblem } from "./settings/settings-problem.js";
export type { SettingsOptions } from "./settings/settings-schema.js";
export { settingsFileSchema } from "./settings/settings-schema.js";
export { trustStorePath } from "./settings/trust-store.js";
export type {
  SettingsReloaded,
  SettingsReloadProblem,
  SettingsReloadProblemReason,
  SettingsWatcher,
  SettingsWatcherEvents,
  WatchHookSettingsOptions,
} from "./settings/watch-hook-settings.js";
export { watchHookSettings } from "./settings/watch-hook-settings.js";
export { linearRegex } from "./support/linear-regex.js";
export type { HttpHandler } from "./ws/ws-http-server.js";
export type { WebSocketOptions } from "./ws/ws-options.js";

// ── For hosts: the hook types of settings files (command, http, prompt, agent, mcp_tool) ──

export type { HookCommonFields } from "./handlers/hook-common.js";
export type { HttpHookDefinition, HttpHookPolicy } from "./handlers/http/http-hook.js";
export type {
  SettingsHookDefinition,
  SettingsHookDefinitions,
  SettingsHookType,
} from "./handlers/settings-handler.js";
export type { AsyncRewake, SettingsHookOptions } from "./settings/settings-hook-registration.js";
/** The host's secrets no hook, server or tool command is handed (with the exceptions beside it). */
export { HOST_SECRET_VARIABLES } from "./support/host-secrets.js";

// ── For hosts: the model behind prompt and agent hooks ───────────────────────────────

export type {
  McpHttpServerConfig,
  McpServerConfig,
  McpServerEntry,
  McpStdioServerConfig,
} from "./handlers/mcp-tool/mcp-server-config.js";
export type { McpServerPoolOptions } from "./handlers/mcp-tool/mcp-server-pool.js";
export { createMcpServerPool } from "./handlers/mcp-tool/mcp-server-pool.js";
export type {
  McpServerPool,
  McpToolCallResult,
  McpToolHookDefinition,
} from "./handlers/mcp-tool/mcp-tool-hook.js";
export type {
  HookModelClient,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelTool,
  ModelToolCall,
} from "./handlers/model/model-client.js";
export type { OpenAIModelClientOptions } from "./handlers/model/openai-model-client.js";
export { modelClientFromEnv, openAIModelClient } from "./handlers/model/openai-model-client.js";
export type {
  AgentHookDefinition,
  AgentRunRequest,
  HookAgentRunner,
  PromptHookDefinition,
} from "./handlers/model/prompt-hook.js";
export type { LoadedMcpServer } from "./settings/mcp-servers.js";

// ── For transports: the gRPC client transport and hooks.proto ─────────────────────

export type { GrpcTransportOptions } from "./grpc/grpc-transport.js";
export { createGrpcTransport } from "./grpc/grpc-transport.js";
export type { HooksProto } from "./grpc/hooks-proto.js";
export { hooksProtoPath, loadHooksProto } from "./grpc/hooks-proto.js";
