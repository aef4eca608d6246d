import { claudeCodeEvents, eventSpecs } from "@a3s-lab/hooks-core";
import { HOOK_EVENTS } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { readyEvents } from "./ready-events.js";
import { bridgedEvents, isBridgedEvent } from "./sdk-events.js";

describe("the SDK event table", () => {
  it("decides about every hook event the installed SDK has: bridged, or ready to bridge, never both", () => {
    const decided = [...Object.keys(bridgedEvents), ...readyEvents];
    expect([...decided].sort()).toEqual([...HOOK_EVENTS].sort());
    expect(new Set(decided).size).toBe(decided.length);
  });

  it("maps each bridged event to an event of the A3S catalogue, each ready one to its definition", () => {
    for (const ours of Object.values(bridgedEvents)) expect(eventSpecs[ours]).toBeDefined();
    for (const name of readyEvents) expect(claudeCodeEvents[name].name).toBe(name);
  });

  it("isBridgedEvent takes only the table's own names", () => {
    expect(isBridgedEvent("PreToolUse")).toBe(true);
    expect(isBridgedEvent("CwdChanged")).toBe(false);
    expect(isBridgedEvent("toString")).toBe(false);
    expect(isBridgedEvent(undefined)).toBe(false);
  });
});
