/**
 * @a3s-lab/demo-agent: a sample agent loop that fires every A3S hook event. Private: this is
 * the map of what is here, for the README's examples and for readers.
 */

export type { OpenedEntry, OpenIntent, OpenOptions } from "@a3s-lab/hooks-node/workspace";
export { MAX_SYMLINK_HOPS, WorkspaceRoot } from "@a3s-lab/hooks-node/workspace";
// ── The agent ─────────────────────────────────────────────────────────────────
export { Agent } from "./agent.js";
export type { AgentErrorCode, AgentErrorOptions } from "./agent-error.js";
export { AgentError } from "./agent-error.js";
export type { LoopDeps, LoopResult } from "./agent-loop.js";
export { runLoop } from "./agent-loop.js";
export type {
  AgentOptions,
  CreateSessionOptions,
  ProgressUpdate,
  Reply,
  RespondOptions,
} from "./agent-options.js";
// ── Hook sources, logs and the CLI ────────────────────────────────────────────
export { createAgentService, MAX_SESSIONS_PER_CLIENT } from "./agent-service.js";
export type { Compaction } from "./compact-messages.js";
export { compactMessages } from "./compact-messages.js";
export type { BudgetAssessment, ContextBudgetOptions } from "./context-budget.js";
export { ContextBudget } from "./context-budget.js";
export type { ContextManagerOptions } from "./context-manager.js";
export { ContextManager } from "./context-manager.js";
// ── Models ────────────────────────────────────────────────────────────────────
export { createModel } from "./create-model.js";
export type { DemoAgent, DemoAgentOptions, HookSources } from "./demo-agent-setup.js";
export { setupDemoAgent } from "./demo-agent-setup.js";
export { registerCheckBeforeStop, registerDemoHooks } from "./demo-hooks.js";
export type { EventLogRecord } from "./event-log.js";
export { attachAuditLog, attachEventLog } from "./event-log.js";
export type { TallyRow } from "./event-tally.js";
export { EventTally } from "./event-tally.js";
export type { Firing, FiringListener } from "./firings.js";
export { DEMO_ENGINE_AUDIT_LEVEL, onFiring } from "./firings.js";
export type { CliIo, MainOptions } from "./main.js";
export { main } from "./main.js";
export type { Model, ModelRequest, ModelResponse, ToolSpec } from "./model.js";
export type { NodeHookSourcesOptions } from "./node-hook-sources.js";
export { nodeHookSources } from "./node-hook-sources.js";
export type { OpenAiModelOptions } from "./openai-model.js";
export { OpenAiModel } from "./openai-model.js";
export { demoPermissionStep, permissionReason } from "./permission-policy.js";
export type { RunScenarioOptions, ScenarioResult } from "./run-command.js";
export { runScenario } from "./run-command.js";
export type { SubagentDeps } from "./run-subagent.js";
export { runSubagent } from "./run-subagent.js";
export type { Directive, ScriptedModelOptions } from "./scripted-model.js";
export { parseDirectives, ScriptedModel } from "./scripted-model.js";
export type { SessionInit } from "./session.js";
export { Session } from "./session.js";
export type { SkillFile } from "./skill-file.js";
export { parseSkillFile, readSkillFile } from "./skill-file.js";
export type {
  InstalledHooks,
  LoadedSkill,
  SkillContext,
  SkillHookInstaller,
  SkillManagerOptions,
} from "./skill-manager.js";
export { SkillManager } from "./skill-manager.js";
export type { Style } from "./style.js";
export { createStyle, shouldColor } from "./style.js";
export type { ToolCallOutcome, ToolCallStatus } from "./tool-call.js";
// ── Tools ─────────────────────────────────────────────────────────────────────
export { bashTool } from "./tools/bash-tool.js";
export { builtinTools } from "./tools/builtin-tools.js";
export { editTool } from "./tools/edit-tool.js";
export { globTool } from "./tools/glob-tool.js";
export { grepTool } from "./tools/grep-tool.js";
export { readTool } from "./tools/read-tool.js";
export { skillTool } from "./tools/skill-tool.js";
export { taskTool } from "./tools/task-tool.js";
export type { SubagentRequest, Tool, ToolContext } from "./tools/tool.js";
export { defineTool, parseToolInput, toolSchemasOf, useWorkspace } from "./tools/tool.js";
export { writeTool } from "./tools/write-tool.js";
export { Transcript } from "./transcript.js";
export type { WatchedChange, WatchPathsOptions } from "./watch-paths.js";
export {
  MAX_WATCHED_ENTRIES,
  MAX_WATCHED_ENTRIES_PER_CLIENT,
  MAX_WATCHED_ENTRIES_TOTAL,
  WatchBudget,
  WatchPaths,
} from "./watch-paths.js";
