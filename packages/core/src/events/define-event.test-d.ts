import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import {
  type ClaudeCodeEventMap,
  claudeCodeEvents,
  createEvent,
  defineEvent,
  HookEngine,
  type HookEventName,
} from "../index.js";

const deployStart = defineEvent("DeployStart", {
  schema: z.object({ target: z.string(), version: z.string() }),
  canBlock: true,
  matcherTarget: "target",
});
defineEvent(claudeCodeEvents.TeammateIdle);

declare module "@a3s-lab/hooks-core" {
  interface HookEventMap extends Pick<ClaudeCodeEventMap, "TeammateIdle"> {
    DeployStart: z.output<typeof deployStart.schema>;
  }
}

describe("events a host defines", () => {
  it("defineEvent types its definition from the schema", () => {
    expectTypeOf(deployStart.name).toEqualTypeOf<"DeployStart">();
    type Deploy = z.output<typeof deployStart.schema>;
    expectTypeOf<Deploy["target"]>().toBeString();
    expectTypeOf<Deploy["eventType"]>().toEqualTypeOf<"DeployStart">();
    expectTypeOf<Deploy["sessionId"]>().toBeString();
  });

  it("an event added to HookEventMap is a typed HookEventName for createEvent, register and fire", async () => {
    expectTypeOf<"DeployStart">().toExtend<HookEventName>();
    expectTypeOf<"TeammateIdle">().toExtend<HookEventName>();
    const event = createEvent("DeployStart", { sessionId: "s", target: "prod", version: "1" });
    expectTypeOf(event.version).toBeString();
    const engine = new HookEngine();
    engine.register({
      event: "TeammateIdle",
      handler: (idle) => {
        expectTypeOf(idle.teammateName).toBeString();
        expectTypeOf(idle.teamName).toEqualTypeOf<string | undefined>();
      },
    });
    const result = await engine.fire(event);
    expectTypeOf(result.event.target).toBeString();
  });

  it("a missing field of a defined event does not compile", () => {
    // @ts-expect-error: version is required
    createEvent("DeployStart", { sessionId: "s", target: "prod" });
    // @ts-expect-error: TaskCreated was not added to HookEventMap here
    createEvent("TaskCreated", { sessionId: "s", taskId: "t", taskSubject: "x" });
  });
});
