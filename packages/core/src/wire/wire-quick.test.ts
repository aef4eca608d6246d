import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { validate } from "../base/validation.js";
import { wireSchemas } from "./wire.js";
import { parseWireFrame, parseWireMessage } from "./wire-frame.js";
import { quickHookEvent } from "./wire-quick.js";

/** What the schema, the authority, says of a HookEvent message. */
const bySchema = (value: unknown) =>
  validate(wireSchemas.HookEvent as z.ZodMiniType, value, "INVALID_OUTPUT", ["HookEvent"]);

const wireId = fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/);
const id = fc.oneof(wireId, fc.constantFrom("", "a b"));
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(arb, fc.constantFrom(undefined, null, 0, "", Number.NaN, Number.POSITIVE_INFINITY));
const jsonObject = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), {
  noNullPrototype: true,
});

/** HookEvent messages as an agent sends them: every field of the right type. */
const wellFormed = fc.record(
  {
    hookId: wireId,
    eventType: fc.oneof(fc.constant("PreToolUse"), fc.string({ maxLength: 128 })),
    sessionId: fc.string({ maxLength: 10 }),
    timestamp: fc.integer(),
    payload: jsonObject,
    eventId: fc.string({ minLength: 1, maxLength: 256 }),
    deadlineMs: fc.integer(),
    cancel: fc.boolean(),
    cancelReason: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ["hookId", "eventType", "eventId"], noNullPrototype: true },
);

/** HookEvent messages as a decoder could produce them: mostly right, often subtly wrong. */
const anything = fc.record(
  {
    hookId: maybe(id),
    eventType: maybe(fc.oneof(fc.constant("PreToolUse"), fc.string({ maxLength: 140 }))),
    sessionId: maybe(fc.string({ maxLength: 10 })),
    timestamp: maybe(fc.integer()),
    payload: maybe(
      fc.oneof(
        jsonObject,
        fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')),
        fc.array(fc.integer()),
      ),
    ),
    eventId: maybe(fc.string({ maxLength: 300 })),
    deadlineMs: maybe(fc.integer()),
    cancel: maybe(fc.boolean()),
    cancelReason: maybe(fc.string({ maxLength: 10 })),
    extra: fc.string(),
  },
  { requiredKeys: ["hookId", "eventType", "eventId"], noNullPrototype: true },
);

describe("quickHookEvent", () => {
  it("answers every well-formed event, exactly as the schema does", () => {
    fc.assert(
      fc.property(wellFormed, (message) => {
        expect({ success: true, data: quickHookEvent(message) }).toEqual(bySchema(message));
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees with the schema whenever it answers, and leaves the rest to it", () => {
    fc.assert(
      fc.property(anything, (message) => {
        const quick = quickHookEvent(message);
        if (quick !== undefined) expect({ success: true, data: quick }).toEqual(bySchema(message));
      }),
      { numRuns: 3000 },
    );
  });

  it("copies the payload, as the schema does", () => {
    const payload = { a: 1 };
    const event = quickHookEvent({ hookId: "h", eventType: "Stop", eventId: "e", payload });
    expect(event?.payload).toEqual(payload);
    expect(event?.payload).not.toBe(payload);
  });

  it("leaves a payload with a __proto__ key to the schema, which drops the key", () => {
    const payload = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const message = { hookId: "h", eventType: "Stop", eventId: "e", payload };
    expect(quickHookEvent(message)).toBeUndefined();
    const checked = parseWireMessage("HookEvent", message);
    expect(checked.success && Object.hasOwn(checked.data.payload!, "__proto__")).toBe(false);
  });

  it("takes a frame's type and id only when asked to, and never returns them", () => {
    const message = { type: "HookEvent", id: "7", hookId: "h", eventType: "Stop", eventId: "e" };
    expect(quickHookEvent(message)).toBeUndefined();
    expect(quickHookEvent(message, true)).toEqual({
      hookId: "h",
      eventType: "Stop",
      sessionId: "",
      timestamp: 0,
      eventId: "e",
      deadlineMs: 0,
    });
    for (const hostile of [null, "x", 1, [message]])
      expect(quickHookEvent(hostile)).toBeUndefined();
  });
});

describe("HookEvent frames", () => {
  it("read as the schema reads them, through the short cut or not", () => {
    fc.assert(
      fc.property(
        fc.oneof(wellFormed, anything),
        fc.option(fc.constantFrom("1", "x".repeat(200)), { nil: undefined }),
        (message, frameId) => {
          const text = JSON.stringify({ type: "HookEvent", ...(message as object), id: frameId });
          const parsed = JSON.parse(text);
          const { type: _type, id: _id, ...fields } = parsed;
          const schema = bySchema(fields);
          const frame = parseWireFrame(text);
          if (frameId !== undefined && frameId.length > 128) {
            expect(frame.success).toBe(false);
            return;
          }
          if (!schema.success) {
            expect(frame.success).toBe(false);
            return;
          }
          expect(frame).toEqual({
            success: true,
            data: {
              ...(schema.data as object),
              type: "HookEvent",
              ...(frameId ? { id: frameId } : {}),
            },
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
