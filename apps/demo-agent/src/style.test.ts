import { describe, expect, it } from "vitest";
import { createStyle, shouldColor } from "./style.js";

describe("style", () => {
  it("colours only a terminal, and honours NO_COLOR and FORCE_COLOR", () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: "0" })).toBe(false);
    expect(shouldColor({ isTTY: false }, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
  });

  it("emits ANSI codes only when enabled", () => {
    expect(createStyle(true).red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(createStyle(false).red("x")).toBe("x");
    expect(createStyle(false).bold("x")).toBe("x");
  });
});
