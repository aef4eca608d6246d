import { describe, expect, it } from "vitest";
import { defaultMaxConnections, openFileLimit } from "./fd-limit.js";

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                20000                files\n`;

describe("openFileLimit", () => {
  it("reads the soft limit", () => {
    expect(openFileLimit(() => limits("256"))).toBe(256);
  });

  it("is undefined when the limit is unlimited or the file is missing", () => {
    expect(openFileLimit(() => limits("unlimited"))).toBeUndefined();
    expect(
      openFileLimit(() => {
        throw new Error("ENOENT");
      }),
    ).toBeUndefined();
  });
});

describe("defaultMaxConnections", () => {
  it("keeps half the descriptors free, within 16 and 10 000", () => {
    expect(defaultMaxConnections(256)).toBe(128);
    expect(defaultMaxConnections(20)).toBe(16);
    expect(defaultMaxConnections(1_048_576)).toBe(10_000);
    expect(defaultMaxConnections(undefined)).toBe(1000);
  });
});
