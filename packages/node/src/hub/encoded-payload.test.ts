import { HookError } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { payloadJson, payloadText } from "./encoded-payload.js";

describe("payloadText and payloadJson", () => {
  it("encode a payload object once, whichever transport asks first", () => {
    const payload = { tool: "Bash", note: "caf\u00e9" };
    const text = payloadText(payload, "e1", 1000);
    expect(text).toBe(JSON.stringify(payload));
    // The cache is keyed on the object: a later change is not seen, the first encoding is.
    payload.note = "changed";
    expect(payloadText(payload, "e1", 1000)).toBe(text);
    const json = payloadJson(payload, "e1", 1000);
    expect(json).toEqual({ json: text, bytes: Buffer.byteLength(text, "utf8") });
    expect(json.bytes).toBe(text.length + 1); // é is two bytes in UTF-8
    expect(payloadJson(payload, "e1", 1000)).toBe(json);
    // An equal but distinct object is encoded on its own.
    expect(payloadText({ tool: "Bash", note: "changed" }, "e2", 1000)).toContain("changed");
  });

  it("refuse a payload over the limit in UTF-8 bytes with LIMIT_EXCEEDED naming the event", () => {
    const payload = { text: "\u00e9".repeat(10) }; // 10 characters, 20 bytes, 31 in JSON
    expect(() => payloadText(payload, "e3", 30)).toThrow(
      expect.objectContaining({
        code: "LIMIT_EXCEEDED",
        message: "event e3 is 31 bytes of JSON; the hook server sends at most 30",
        details: { limit: 30 },
      }),
    );
    let thrown: unknown;
    try {
      payloadJson(payload, "e3", 30);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HookError);
    expect((thrown as HookError).message).toBe(
      "event e3 is 31 bytes of JSON; the hook server sends at most 30",
    );
    expect(payloadText(payload, "e3", 31)).toBe(JSON.stringify(payload));
  });

  it("check the size for each limit, though the encoding is cached", () => {
    const payload = { a: "x".repeat(50) };
    expect(payloadJson(payload, "e4", 100).bytes).toBe(58);
    expect(() => payloadJson(payload, "e4", 57)).toThrow(/58 bytes of JSON/);
    expect(() => payloadText(payload, "e4", 57)).toThrow(/58 bytes of JSON/);
  });
});
