import type { HookEventMessage } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { encodeHookEvent, withEncodedHookEvents } from "./hook-event-encoder.js";
import { loadHooksProto } from "./hooks-proto.js";

const stream = loadHooksProto().HookService.HookStream!;
const protobufjs = (message: object) => stream.responseSerialize(message) as Buffer;
const json = (payload: object) => {
  const text = JSON.stringify(payload);
  return { json: text, bytes: Buffer.byteLength(text, "utf8") };
};

const firing: HookEventMessage = {
  hookId: "hook-\u00e9",
  eventType: "PreToolUse",
  sessionId: "s\u{1F600}1",
  timestamp: 1_764_000_000_123,
  eventId: "evt-1",
  deadlineMs: 1_764_000_030_123,
  payload: { tool: "Bash", args: { command: "echo caf\u00e9 \u{1F600}" } },
};

describe("encodeHookEvent", () => {
  it("writes the bytes proto-loader writes for a firing, payload included", () => {
    const payload = json(firing.payload!);
    const bytes = encodeHookEvent(firing, payload);
    expect(bytes).toEqual(protobufjs({ ...firing, payload: Buffer.from(payload.json) }));
    expect(stream.responseDeserialize(bytes!)).toEqual({
      ...firing,
      payload: Buffer.from(payload.json),
    });
  });

  it("writes multi-byte lengths for payloads of 128 B, 16 KB and 2 MB", () => {
    for (const size of [200, 20_000, 2_100_000]) {
      const event = { ...firing, payload: { text: "x".repeat(size) } };
      const payload = json(event.payload);
      const bytes = encodeHookEvent(event, payload)!;
      expect(bytes.length).toBeGreaterThan(size);
      expect(bytes.equals(protobufjs({ ...event, payload: Buffer.from(payload.json) }))).toBe(true);
    }
  });

  it("writes a cancellation (no payload, cancel, reason, zero deadline) as proto-loader does", () => {
    const cancel: HookEventMessage = {
      hookId: "h",
      eventType: "PreToolUse",
      sessionId: "",
      timestamp: 0,
      eventId: "evt-2",
      deadlineMs: 0,
      cancel: true,
      cancelReason: "timed out after 5000 ms",
    };
    const bytes = encodeHookEvent(cancel, undefined);
    expect(bytes).toEqual(protobufjs(cancel));
    expect(stream.responseDeserialize(bytes!)).toMatchObject({ cancel: true, eventId: "evt-2" });
    expect(encodeHookEvent({ ...cancel, cancel: false }, undefined)).toEqual(
      protobufjs({ ...cancel, cancel: false }),
    );
  });

  it("sends a lone surrogate in a string field as U+FFFD, valid UTF-8", () => {
    const bytes = encodeHookEvent({ ...firing, sessionId: "a\ud800b" }, undefined)!;
    expect(bytes.includes(Buffer.from("a\u{FFFD}b", "utf8"))).toBe(true);
    expect(stream.responseDeserialize(bytes)).toMatchObject({ sessionId: "a\u{FFFD}b" });
  });

  it("leaves a negative, fractional or unsafe timestamp or deadline to protobufjs", () => {
    expect(encodeHookEvent({ ...firing, timestamp: -1 }, undefined)).toBeUndefined();
    expect(encodeHookEvent({ ...firing, timestamp: 1.5 }, undefined)).toBeUndefined();
    expect(encodeHookEvent({ ...firing, deadlineMs: 2 ** 60 }, undefined)).toBeUndefined();
  });
});

describe("withEncodedHookEvents", () => {
  it("passes encoded bytes through HookStream's serializer and serializes anything else", () => {
    const service = withEncodedHookEvents(loadHooksProto().HookService);
    const serialize = service.HookStream!.responseSerialize;
    const bytes = encodeHookEvent(firing, json(firing.payload!))!;
    expect(serialize(bytes)).toBe(bytes);
    const cancel = { ...firing, payload: undefined, cancel: true };
    expect(serialize(cancel)).toEqual(protobufjs(cancel));
    // The other methods, and the shared definition, are left as they were.
    expect(service.RegisterHook).toBe(loadHooksProto().HookService.RegisterHook);
    expect(loadHooksProto().HookService.HookStream!.responseSerialize).toBe(
      stream.responseSerialize,
    );
  });
});
