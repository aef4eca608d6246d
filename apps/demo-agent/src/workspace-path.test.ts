import { describe, expect, it } from "vitest";
import { isInside } from "./workspace-path.js";

describe("isInside", () => {
  it("treats a root of / as holding every absolute path", () => {
    expect(isInside("/", "/")).toBe(true);
    expect(isInside("/", "/tmp/ws/a.md")).toBe(true);
  });

  it("compares whole segments: a folder named ..x is inside, a sibling with the same prefix is not", () => {
    expect(isInside("/tmp/ws", "/tmp/ws")).toBe(true);
    expect(isInside("/tmp/ws", "/tmp/ws/..x/skill.md")).toBe(true);
    expect(isInside("/tmp/ws", "/tmp/ws2/skill.md")).toBe(false);
    expect(isInside("/tmp/ws", "/tmp")).toBe(false);
    expect(isInside("/tmp/ws/", "/tmp/ws/a")).toBe(true);
  });
});
