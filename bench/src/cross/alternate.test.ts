import { describe, expect, it } from "vitest";
import { alternate } from "./alternate.js";

describe("alternate", () => {
  it("interleaves the contenders call by call, dropping the warm-up", async () => {
    const order: string[] = [];
    const samples = await alternate(
      {
        a: async () => void order.push("a"),
        b: async () => void order.push("b"),
      },
      4,
      2,
    );
    expect(samples.a).toHaveLength(4);
    expect(samples.b).toHaveLength(4);
    // Six rounds (two of warm-up), the first contender swapping every round.
    expect(order.join("")).toBe("abbaabbaabba");
  });

  it("refuses an empty field", async () => {
    await expect(alternate({}, 1)).rejects.toMatchObject({ code: "TASK_FAILED" });
  });
});
