/**
 * The names of Claude Code's events that ship as ready definitions in `claudeCodeEvents`, without
 * their schemas: an "unknown event name" message can point at them without bringing every
 * definition into a page that never opts in to one. `claudeCodeEvents` is checked against this
 * list when it compiles (a missing or extra name is a type error).
 */
export const claudeCodeEventNames = [
  "PostToolBatch",
  "UserPromptExpansion",
  "StopFailure",
  "Elicitation",
  "ElicitationResult",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Setup",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreModelSwitch",
  "PostModelSwitch",
  "MessageDisplay",
  "DirectoryAdded",
] as const;

/** One of {@link claudeCodeEventNames}. */
export type ClaudeCodeEventName = (typeof claudeCodeEventNames)[number];
