import { describe, expect, it } from "vitest";
import { intFlags } from "./child-args.js";

const spec = {
  fires: { min: 1, max: 1000, default: 10 },
  port: { min: 1, max: 65_535, default: 0 },
};

describe("intFlags", () => {
  it("reads known integer flags and keeps defaults for the rest", () => {
    expect(intFlags([], spec)).toEqual({ fires: 10, port: 0 });
    expect(intFlags(["--fires", "1000", "--port", "8080"], spec)).toEqual({
      fires: 1000,
      port: 8080,
    });
  });

  it("rejects unknown flags, missing or non-integer values and values out of range", () => {
    expect(() => intFlags(["--bogus", "1"], spec)).toThrow(
      "--bogus: unknown flag (known: --fires, --port)",
    );
    expect(() => intFlags(["fires", "1"], spec)).toThrow("fires: unknown flag");
    expect(() => intFlags(["--fires"], spec)).toThrow(
      "--fires: expected a whole number from 1 to 1000, got null",
    );
    expect(() => intFlags(["--fires", "1e3"], spec)).toThrow('got "1e3"');
    expect(() => intFlags(["--fires", "-1"], spec)).toThrow('got "-1"');
    expect(() => intFlags(["--fires", "1001"], spec)).toThrow('got "1001"');
    expect(() => intFlags(["--fires", "9".repeat(400)], spec)).toThrow(/expected a whole number/);
  });
});
