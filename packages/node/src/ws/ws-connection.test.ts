import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shortReason } from "./ws-connection.js";

// An ASCII run of any length moves byte 120 across the multi-byte characters after it. Built once
// per file: built inside the test, the same property took 20-30 s of a run instead of under 1 s.
const ascii = fc.string({ unit: "grapheme-ascii", minLength: 100, maxLength: 125 });
const wide = fc.string({ unit: "binary", minLength: 1, maxLength: 60 });

describe("shortReason", () => {
  it("keeps a reason of 123 bytes or fewer as it is", () => {
    expect(shortReason("x".repeat(123))).toBe("x".repeat(123));
    expect(shortReason("\u00e9".repeat(61))).toBe("\u00e9".repeat(61));
  });

  it("cuts at a character boundary, so a cut through é or an emoji stays within 123 bytes", () => {
    // Byte 120 falls inside the é after 119 ASCII bytes, and inside the emoji after 118.
    expect(shortReason(`${"a".repeat(119)}${"\u00e9".repeat(10)}`)).toBe(`${"a".repeat(119)}…`);
    expect(shortReason(`${"a".repeat(118)}${"\u{1f600}".repeat(5)}`)).toBe(`${"a".repeat(118)}…`);
  });

  it("is always a prefix of the message within 123 bytes, never with a replacement character", () => {
    fc.assert(
      fc.property(ascii, wide, (head, tail) => {
        const message = head + tail;
        const reason = shortReason(message);
        expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
        if (reason === message) return;
        expect(reason.endsWith("…")).toBe(true);
        const kept = reason.slice(0, -1);
        expect(Buffer.from(message).subarray(0, Buffer.byteLength(kept)).toString()).toBe(kept);
        expect(kept.includes("\ufffd") && !message.includes("\ufffd")).toBe(false);
      }),
    );
  });
});
