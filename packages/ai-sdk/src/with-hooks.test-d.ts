import { HookEngine } from "@a3s-lab/hooks-core";
import { generateText, type InferToolInput, type InferToolOutput, tool } from "ai";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { type BlockedToolOutput, withHooks } from "./with-hooks.js";

const weather = tool({
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: "sunny" }),
});

test("a hooked tool keeps its input type, and may also return a block or text", () => {
  const tools = withHooks({ weather }, new HookEngine(), { sessionId: "s" });
  expectTypeOf<InferToolInput<typeof tools.weather>>().toEqualTypeOf<{ city: string }>();
  expectTypeOf<InferToolOutput<typeof tools.weather>>().toEqualTypeOf<
    { city: string; forecast: string } | string | BlockedToolOutput
  >();
  expectTypeOf(tools).toHaveProperty("weather");
  // @ts-expect-error: only the tools passed in exist
  tools.search;
});

test("hooked tools go where the SDK takes tools, and step results say a block may come back", async () => {
  const tools = withHooks({ weather }, new HookEngine(), { sessionId: "s" });
  const run = () => generateText({ model: "m", tools, prompt: "p" });
  type Output = Awaited<ReturnType<typeof run>>["steps"][number]["toolResults"][number]["output"];
  expectTypeOf<BlockedToolOutput>().toExtend<Output>();
});
