import { type HookEvent, type HookEventName, validateEvent } from "@a3s-lab/hooks-core";
import { defineDemoEvents, demoEventNames } from "../src/demo-events.js";
import type { EventLogRecord } from "../src/event-log.js";

// The log holds the demo's Claude Code events too: the catalogue must know them to check them.
defineDemoEvents();

type Ev = HookEvent & Record<string, unknown>;

/**
 * Check that every event in an `--events` log fired at its point of the agent loop, with a
 * payload core's schema accepts. Returns the violations (empty when all is well), each naming
 * the line of the log.
 */
export function checkEventPoints(records: readonly EventLogRecord[]): string[] {
  const problems: string[] = [];
  const bad = (i: number, message: string) =>
    problems.push(`line ${i + 1} (${records[i]?.event.eventType}): ${message}`);
  const events = records.map((r) => r.event as Ev);

  for (const [i, event] of events.entries()) {
    const checked = validateEvent(event);
    if (!checked.success) bad(i, `invalid payload: ${checked.error.message}`);
  }

  const sessions = new Map<string, number[]>();
  for (const [i, e] of events.entries()) {
    const list = sessions.get(e.sessionId) ?? [];
    list.push(i);
    sessions.set(e.sessionId, list);
  }

  for (const indexes of sessions.values()) {
    const first = indexes[0]!;
    const last = indexes.at(-1)!;
    if (events[first]!.eventType !== "SessionStart")
      bad(first, "a session's first event must be SessionStart");
    for (const i of indexes.slice(1))
      if (events[i]!.eventType === "SessionStart") bad(i, "SessionStart after the session began");
    for (const i of indexes.slice(0, -1))
      if (events[i]!.eventType === "SessionEnd") bad(i, "events after SessionEnd");
    if (events[last]!.eventType !== "SessionEnd")
      bad(last, "a session's last event must be SessionEnd");

    // Responses: from one UserPromptSubmit to the next.
    const turns: number[][] = [];
    for (const i of indexes) {
      const type = events[i]!.eventType;
      if (type === "UserPromptSubmit") turns.push([i]);
      else if (type !== "SessionStart" && type !== "SessionEnd") {
        if (turns.length === 0) {
          // Outside a response only SDK tool calls (executeTool), compaction, the session's
          // instructions and settings changes may happen.
          if (!/Tool|Permission|Notification|Compact|InstructionsLoaded|ConfigChange/.test(type))
            bad(i, "fired outside any response");
          continue;
        }
        turns.at(-1)!.push(i);
      }
    }
    for (const turn of turns) checkTurn(turn, events, records, bad);
  }
  return problems;
}

function checkTurn(
  turn: number[],
  events: Ev[],
  records: readonly EventLogRecord[],
  bad: (i: number, message: string) => void,
) {
  const submit = turn[0]!;
  const rest = turn.slice(1);
  if (records[submit]!.result.action === "block") {
    if (rest.some((i) => events[i]!.eventType !== "Notification"))
      bad(submit, "a blocked prompt must not reach the model");
    return;
  }
  const stops = rest.filter((i) => events[i]!.eventType === "Stop");
  const failure = rest.find((i) => events[i]!.eventType === "StopFailure");
  if (failure !== undefined) {
    // A turn the model failed ends with StopFailure instead of Stop.
    if (stops.length > 0) bad(failure, "a failed turn must not also Stop");
    const after = rest.filter(
      (i) => i > failure && !/SkillUnload|ConfigChange/.test(events[i]!.eventType),
    );
    if (after.length > 0) bad(after[0]!, "only SkillUnload may follow StopFailure");
    return;
  }
  if (stops.length === 0) bad(submit, "a response must end with Stop");
  for (const [n, i] of stops.entries()) {
    const active = events[i]!.stopHookActive === true;
    if (active !== n > 0) bad(i, `stopHookActive must be ${n > 0}`);
    if (n > 0 && records[stops[n - 1]!]!.result.action !== "block")
      bad(i, "a second Stop needs a blocking one before it");
  }
  const lastStop = stops.at(-1);
  for (const i of rest) {
    const type = events[i]!.eventType;
    // Between responses: SDK tool calls (executeTool) and manual compactions (`/compact`).
    const direct =
      String(events[i]!.toolUseId ?? "").startsWith("exec_") || events[i]!.trigger === "manual";
    if (
      lastStop !== undefined &&
      i > lastStop &&
      !direct &&
      type !== "SkillUnload" &&
      type !== "Notification" &&
      // A settings file the turn changed is taken in after it, when the watcher sees it.
      type !== "ConfigChange"
    ) {
      bad(i, "only SkillUnload may follow the final Stop of a response");
    }
  }

  // Generations alternate Start/End within each loop (top level, or one subagent).
  const loops = new Map<string, number[]>();
  for (const i of rest) {
    const e = events[i]!;
    if (e.eventType !== "GenerateStart" && e.eventType !== "GenerateEnd") continue;
    const key = String(e.metadata.subagentId ?? "");
    loops.set(key, [...(loops.get(key) ?? []), i]);
  }
  for (const list of loops.values()) {
    let open: number | undefined;
    for (const i of list) {
      if (events[i]!.eventType === "GenerateStart") {
        if (open !== undefined) bad(i, "GenerateStart before the previous generation ended");
        open = records[i]!.result.action === "block" ? undefined : i;
      } else {
        if (open === undefined) bad(i, "GenerateEnd without GenerateStart");
        open = undefined;
      }
    }
  }

  // Tool calls: PreToolUse → (PermissionRequest → Granted|Denied) → PostToolUse|PostToolUseFailure.
  const calls = new Map<string, number[]>();
  for (const i of rest) {
    const id = events[i]!.toolUseId;
    if (typeof id === "string") calls.set(id, [...(calls.get(id) ?? []), i]);
  }
  for (const [id, list] of calls) {
    const types = list.map((i) => events[i]!.eventType);
    const pre = types.lastIndexOf("PreToolUse");
    if (types[0] !== "PreToolUse") bad(list[0]!, `tool call ${id} must start with PreToolUse`);
    const ended = types.filter((t) => t === "PostToolUse" || t === "PostToolUseFailure").length;
    if (ended > 1) bad(list[0]!, `tool call ${id} ended twice`);
    const request = types.indexOf("PermissionRequest");
    const granted = types.indexOf("PermissionGranted");
    const denied = types.indexOf("PermissionDenied");
    if (request >= 0 && request < pre) bad(list[request]!, "PermissionRequest before PreToolUse");
    if (request >= 0 && granted < 0 && denied < 0)
      bad(list[request]!, "PermissionRequest without an answer");
    if (denied >= 0 && ended > 0) bad(list[denied]!, "a denied tool must not run");
    if (records[list[pre]!]!.result.action === "block" && types.length > pre + 1) {
      bad(list[pre]!, "a blocked tool call must not go on");
    }
    const post = types.findIndex((t) => t === "PostToolUse" || t === "PostToolUseFailure");
    if (granted >= 0 && post >= 0 && post < granted)
      bad(list[post]!, "the tool ran before permission was granted");
    // A model's call is announced by the GenerateEnd before it.
    const tool = events[list[0]!]!;
    const before = events
      .slice(0, list[0])
      .findLast(
        (e) => e.eventType === "GenerateEnd" && e.metadata.subagentId === tool.metadata.subagentId,
      ) as { response?: { toolCalls: { id: string }[] } } | undefined;
    if (!id.startsWith("exec_") && !before?.response?.toolCalls.some((c) => c.id === id)) {
      bad(list[0]!, `tool call ${id} was not announced by a GenerateEnd`);
    }
  }

  // Subagents: between the Task's PreToolUse and PostToolUse; their events are tagged.
  for (const i of rest.filter((x) => events[x]!.eventType === "SubagentStart")) {
    const id = events[i]!.subagentId;
    const stop = rest.find(
      (x) => x > i && events[x]!.eventType === "SubagentStop" && events[x]!.subagentId === id,
    );
    if (records[i]!.result.action === "block") continue;
    if (stop === undefined) {
      bad(i, `subagent ${String(id)} never stopped`);
      continue;
    }
    for (const x of rest.filter((y) => y > i && y < stop)) {
      if (events[x]!.metadata.subagentId !== id)
        bad(x, `inside subagent ${String(id)} but not tagged with it`);
    }
    const before = events
      .slice(0, i)
      .findLast((e) => e.eventType === "PreToolUse" && !e.metadata.subagentId);
    if (before?.tool !== "Task") bad(i, "SubagentStart must follow the Task tool's PreToolUse");
  }

  // Compaction: PreCompact → PostCompact, nothing between; the warning comes first.
  for (const i of rest.filter((x) => events[x]!.eventType === "PreCompact")) {
    if (records[i]!.result.action === "block") continue;
    const next = rest[rest.indexOf(i) + 1];
    if (next === undefined || events[next]!.eventType !== "PostCompact")
      bad(i, "PreCompact must be followed by PostCompact");
    if (
      events[i]!.trigger === "auto" &&
      !events
        .slice(0, i)
        .some((e) => e.eventType === "ContextWarning" && e.sessionId === events[i]!.sessionId)
    ) {
      bad(i, "automatic compaction without a ContextWarning first");
    }
  }
  for (const i of rest.filter((x) => events[x]!.eventType === "PostCompact")) {
    const prev = rest[rest.indexOf(i) - 1];
    if (prev === undefined || events[prev]!.eventType !== "PreCompact")
      bad(i, "PostCompact without PreCompact");
  }

  // Skills: SkillLoad inside the Skill tool's call; SkillUnload after the final Stop.
  for (const i of rest.filter((x) => events[x]!.eventType === "SkillLoad")) {
    const pre = events.slice(0, i).findLast((e) => e.eventType === "PreToolUse");
    if (pre?.tool !== "Skill") bad(i, "SkillLoad must follow the Skill tool's PreToolUse");
    const unload = rest.find(
      (x) =>
        x > i &&
        events[x]!.eventType === "SkillUnload" &&
        events[x]!.skillName === events[i]!.skillName,
    );
    if (
      records[i]!.result.action !== "block" &&
      (unload === undefined || (lastStop !== undefined && unload < lastStop))
    ) {
      bad(i, "a loaded skill must unload after the response's final Stop");
    }
  }
}

/** Every event the demo fires (the built-in twenty and its Claude Code ones) missing from the log. */
export function missingEvents(records: readonly EventLogRecord[]): HookEventName[] {
  const seen = new Set(records.map((r) => r.event.eventType));
  return demoEventNames().filter((name) => !seen.has(name));
}
