import type { Options, HookEvent as SdkHookEvent } from "@anthropic-ai/claude-agent-sdk";
import { describe, expectTypeOf, it } from "vitest";
import type { ReadySdkEvent } from "./ready-events.js";
import type { BridgedSdkEvent } from "./sdk-events.js";
import type { AgentSdkHooks } from "./to-agent-sdk-hooks.js";

describe("the SDK event table, as types", () => {
  it("leaves no SDK hook event undecided", () => {
    expectTypeOf<Exclude<SdkHookEvent, BridgedSdkEvent | ReadySdkEvent>>().toBeNever();
  });

  it("produces what query() takes as its hooks option", () => {
    expectTypeOf<AgentSdkHooks>().toExtend<NonNullable<Options["hooks"]>>();
  });
});
