import { eventSchemas, type HookEvent, type HookEventName } from "./event-schemas.js";

/** What a string matcher is tested against, for each event. */
export type MatcherTarget =
  | "tool"
  | "source"
  | "reason"
  | "model"
  | "trigger"
  | "subagentType"
  | "notificationType"
  | "skillName";

/** What the engine knows about one event: what a matcher tests, whether it can block, what a hook may modify. */
export interface EventSpec {
  readonly name: HookEventName;
  /** May a hook block this event? A block on an event that cannot block is a warning. */
  readonly canBlock: boolean;
  /** Dotted paths a `modified` patch may touch: `args` allows `args.command` too. */
  readonly modifiable: readonly string[];
  /** The field a string matcher tests, or undefined when this event has none. */
  readonly matcherTarget: MatcherTarget | undefined;
  /** A tool event: object matchers (`{ tool, pathPattern, commandPattern }`) apply. */
  readonly toolEvent: boolean;
}

function spec(
  name: HookEventName,
  canBlock: boolean,
  modifiable: readonly string[],
  matcherTarget: MatcherTarget | undefined,
): EventSpec {
  return Object.freeze({
    name,
    canBlock,
    modifiable: Object.freeze([...modifiable]),
    matcherTarget,
    toolEvent: matcherTarget === "tool",
  });
}

/** Every event's spec: its matcher target, whether it can block, what a hook may modify. */
export const eventSpecs: Readonly<Record<HookEventName, EventSpec>> = Object.freeze({
  SessionStart: spec("SessionStart", true, ["metadata"], "source"),
  SessionEnd: spec("SessionEnd", false, [], "reason"),
  UserPromptSubmit: spec("UserPromptSubmit", true, ["prompt"], undefined),
  GenerateStart: spec(
    "GenerateStart",
    true,
    ["prompt", "systemPrompt", "messages", "tools"],
    "model",
  ),
  GenerateEnd: spec("GenerateEnd", false, ["response.text"], "model"),
  PreToolUse: spec("PreToolUse", true, ["args"], "tool"),
  PostToolUse: spec("PostToolUse", false, ["result.output"], "tool"),
  PostToolUseFailure: spec("PostToolUseFailure", false, [], "tool"),
  PermissionRequest: spec("PermissionRequest", true, ["args"], "tool"),
  PermissionGranted: spec("PermissionGranted", false, [], "tool"),
  PermissionDenied: spec("PermissionDenied", false, [], "tool"),
  PreCompact: spec("PreCompact", true, [], "trigger"),
  PostCompact: spec("PostCompact", false, [], "trigger"),
  ContextWarning: spec("ContextWarning", false, [], "trigger"),
  Stop: spec("Stop", true, [], undefined),
  SubagentStart: spec("SubagentStart", true, ["description"], "subagentType"),
  SubagentStop: spec("SubagentStop", false, [], "subagentType"),
  Notification: spec("Notification", false, [], "notificationType"),
  SkillLoad: spec("SkillLoad", true, [], "skillName"),
  SkillUnload: spec("SkillUnload", false, [], "skillName"),
});

/** Every canonical event name, in catalogue order. */
export const hookEventNames: readonly HookEventName[] = Object.freeze(
  Object.keys(eventSchemas) as HookEventName[],
);

/** Names accepted on input for an event that has a canonical name of its own. */
export const eventAliases: Readonly<Record<string, HookEventName>> = Object.freeze({
  ToolError: "PostToolUseFailure",
});

const snake = (name: string) => name.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();

const lookup = new Map<string, HookEventName>();
const spellings: [string, HookEventName][] = [
  ...hookEventNames.map((name): [string, HookEventName] => [name, name]),
  ...Object.entries(eventAliases),
];
for (const [spelling, name] of spellings) {
  lookup.set(spelling, name);
  lookup.set(spelling.toLowerCase(), name);
  // the Rust-agent format writes `pre_tool_use` on stdin and `preToolUse` in settings files.
  lookup.set(snake(spelling), name);
}

/**
 * The canonical name for any accepted spelling (`PreToolUse`, `preToolUse`, `pre_tool_use`,
 * the alias `ToolError`), or undefined when the name is not in the catalogue.
 */
export function resolveEventName(name: string): HookEventName | undefined {
  return lookup.get(name) ?? lookup.get(name.toLowerCase());
}

/** True when `name` is a canonical event name. */
export function isHookEventName(name: unknown): name is HookEventName {
  return typeof name === "string" && Object.hasOwn(eventSpecs, name);
}

/** The Rust-agent format's snake_case name of an event: `PreToolUse` → `pre_tool_use`. */
export function snakeCaseEventName(name: HookEventName): string {
  return snake(name);
}

/** The value a string matcher tests for this event, or undefined when it has none. */
export function matcherSubject(event: HookEvent): string | undefined {
  switch (eventSpecs[event.eventType]?.matcherTarget) {
    case "tool":
      return (event as { tool: string }).tool;
    case "source":
      return (event as { source: string }).source;
    case "reason":
      return (event as { reason: string }).reason;
    case "model":
      return (event as { model: { name: string } }).model?.name;
    case "trigger":
      return (event as { trigger: string }).trigger;
    case "subagentType":
      return (event as { subagentType: string }).subagentType;
    case "notificationType":
      return (event as { notificationType: string }).notificationType;
    case "skillName":
      return (event as { skillName: string }).skillName;
    default:
      return undefined;
  }
}
