import { HookError } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { applyCommonFields, type CommonRegistrationFields } from "./hook-common.js";
import {
  createSettingsHandler,
  DEFAULT_TIMEOUT_SECONDS,
  describeDefinition,
  HOOK_TYPES,
  hookTypeShapes,
  SETTINGS_HOOK_TYPES,
} from "./settings-handler.js";

describe("the hook-type registry", () => {
  it("lists each type once, under the name its record answers to", () => {
    expect(SETTINGS_HOOK_TYPES).toEqual(["command", "http", "prompt", "agent", "mcp_tool"]);
    for (const [name, record] of Object.entries(HOOK_TYPES)) expect(record.type).toBe(name);
  });

  it("derives the default timeouts and the shapes from the records", () => {
    expect(DEFAULT_TIMEOUT_SECONDS).toEqual({
      command: 60,
      http: 600,
      prompt: 30,
      agent: 60,
      mcp_tool: 600,
    });
    expect(hookTypeShapes.http).toBe(HOOK_TYPES.http.shape);
    expect(Object.keys(hookTypeShapes)).toEqual(["http", "prompt", "agent", "mcp_tool"]);
  });

  it("describes a definition of every type through its record", () => {
    expect(describeDefinition({ command: "echo hi" })).toBe("echo hi");
    expect(describeDefinition({ type: "http", url: "https://example.test/h" })).toBe(
      "POST https://example.test/h",
    );
    expect(describeDefinition({ type: "prompt", prompt: "Is\n  this   safe?" })).toBe(
      "prompt: Is this safe?",
    );
    expect(describeDefinition({ type: "agent", prompt: "x".repeat(80) })).toBe(
      `agent: ${"x".repeat(59)}…`,
    );
    expect(describeDefinition({ type: "mcp_tool", server: "gh", tool: "check" })).toBe(
      "mcp_tool gh/check",
    );
  });

  it("checks through the record: an http hook's URL, none for the others", () => {
    expect(HOOK_TYPES.http.check({ type: "http", url: "ftp://x" })[0]?.field).toBe("url");
    expect(HOOK_TYPES.prompt.check({ type: "prompt", prompt: "p" })).toEqual([]);
  });

  it("creates through the record, and the record's refusal is the type's", () => {
    expect(() =>
      createSettingsHandler({ type: "prompt", prompt: "p" }, { projectDir: "/", name: "judge" }),
    ).toThrow(HookError);
    const handler = createSettingsHandler(
      { type: "http", url: "https://example.test/h" },
      { projectDir: "/" },
    );
    expect(typeof handler).toBe("function");
  });
});

describe("applyCommonFields", () => {
  it("applies the common fields the same way whatever the type", () => {
    const registration = applyCommonFields(
      {},
      { onFailure: "block", asyncRewake: true, once: true, priority: -3 },
      { failBehavior: "continue", source: "/p/.claude/settings.json" },
    );
    expect(registration).toEqual({
      failBehavior: "block",
      async: true,
      once: true,
      priority: -3,
      source: "/p/.claude/settings.json",
    });
  });

  it("takes the settings' fail behaviour when the hook sets none, and leaves unset fields out", () => {
    expect(applyCommonFields({}, {}, { failBehavior: "block" })).toEqual({ failBehavior: "block" });
    expect(applyCommonFields({}, { async: false }, {})).toEqual({ async: false });
  });

  it("fails closed when the two spellings of the fail behaviour disagree", () => {
    expect(
      applyCommonFields<CommonRegistrationFields>(
        {},
        { onFailure: "continue", failBehavior: "block" },
        {},
      ).failBehavior,
    ).toBe("block");
  });
});
