/** One step of the `run` scenario: a caption for the transcript and the prompt. */
export interface ScenarioStep {
  caption: string;
  prompt: string;
  /** The step changes a settings file: wait for the running agent to take it in (or refuse it). */
  changesSettings?: boolean;
}

/**
 * The scripted scenario `run` plays. Each prompt is a set of scripted-model directives (one
 * per line); together they make every hook event fire.
 */
export const DEMO_SCENARIO: readonly ScenarioStep[] = Object.freeze([
  {
    caption:
      "Write a file: permission asked and allowed by a hook; a settings-file hook formats it",
    prompt: 'write config.json: {"name":"demo","tags":["hooks","agents"]}\nread config.json',
  },
  {
    caption:
      "Arguments rewritten: every Bash command gets a timeout; the default answers the permission",
    prompt: "bash: ls",
  },
  {
    caption: "A dangerous command is blocked before it runs",
    prompt: "bash: rm -rf /",
  },
  {
    caption: "A PermissionRequest hook denies network access",
    prompt: "bash: curl -s https://example.com",
  },
  {
    caption: "Edits, a failing tool, and a path outside the working directory",
    prompt:
      "write notes.md: hello hooks\nedit notes.md: hello => goodbye\nread notes.md\nread missing.txt\nread ../../etc/passwd",
  },
  {
    caption: "The prompt is rewritten: a hook redacts an API key before the model sees it",
    prompt: "remember my key sk-demo1234567890abcdef\nsay: I will not repeat secrets.",
  },
  {
    caption: "A subagent does a job in a loop of its own",
    prompt: "task: glob **/*.md\\ngrep goodbye",
  },
  {
    caption: "A skill with its own hooks: while careful-shell is loaded, sudo is refused",
    prompt: "skill: careful-shell\nbash: sudo ls",
  },
  {
    caption:
      "The shell moves and a watched file changes: cd fires CwdChanged, writing .env fires FileChanged",
    prompt: "bash: mkdir -p docs\nbash: cd docs\nwrite .env: DEMO_MODE=on",
  },
  {
    caption:
      "The agent edits the project's settings while it runs: ConfigChange asks first, and a hook refuses",
    // Already formatted (with its newline), so the JSON formatter hook leaves it: one change.
    prompt: "write .claude/settings.json: {}\\n",
    changesSettings: true,
  },
  {
    caption: "The model call fails (a rate limit): the turn ends with StopFailure instead of Stop",
    prompt: "fail: rate_limit",
  },
  {
    caption: "The Stop hook makes the agent read back what it wrote before it stops",
    prompt: "write todo.md: - ship the demo",
  },
]);
