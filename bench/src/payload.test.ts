import { validateEvent } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { eventOfSize } from "./payload.js";

describe("eventOfSize", () => {
  it("makes a valid PreToolUse event whose JSON is the size asked for", () => {
    for (const size of [1024, 4096, 65_536]) {
      const event = eventOfSize(size);
      expect(JSON.stringify(event).length).toBe(size);
      expect(validateEvent(event).success).toBe(true);
    }
  });

  it("cannot go below the empty event, and says nothing false about it", () => {
    const event = eventOfSize(1);
    expect(event.args.content).toBe("");
  });
});
