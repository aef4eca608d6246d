import { readFile } from "node:fs/promises";
import { createEvent, HookEngine } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { commandHookRegistration } from "./create-command-hook.js";
import { HOOK_OUTPUT_CAP, HOOK_OUTPUT_PREVIEW, spillOversizedOutput } from "./spill-output.js";

const prompt = () => createEvent("UserPromptSubmit", { sessionId: "s", prompt: "hi" });

describe("hook output past the cap", () => {
  it("plain stdout over 10 000 characters reaches the agent as a preview and the path of a file with all of it", async () => {
    const engine = new HookEngine();
    // A real shell prints 12 000 characters: "x" 11 999 times, then "END".
    engine.register(
      commandHookRegistration({
        event: "UserPromptSubmit",
        command: "printf 'x%.0s' $(seq 1 11997); printf END",
      }),
    );
    const result = await engine.fire(prompt());
    const context = result.additionalContext ?? "";
    expect(context.length).toBeLessThan(HOOK_OUTPUT_CAP);
    expect(context.startsWith("x".repeat(HOOK_OUTPUT_PREVIEW))).toBe(true);
    const path = /the whole of it is in (\S+)\]$/.exec(context)?.[1];
    expect(path).toBeDefined();
    const saved = await readFile(path!, "utf8");
    expect(saved).toHaveLength(12_000);
    expect(saved.endsWith("END")).toBe(true);
  });

  it("leaves text at the cap as it is, and cuts at the cap (saying so) when the file cannot be written", async () => {
    const atCap = { action: "continue", additionalContext: "y".repeat(HOOK_OUTPUT_CAP) };
    expect(await spillOversizedOutput(atCap, { eventId: "e" })).toBe(atCap);
    const over = { action: "continue", systemMessage: "z".repeat(HOOK_OUTPUT_CAP + 1) };
    const cut = (await spillOversizedOutput(
      over,
      { eventId: "e" },
      { folder: () => Promise.reject(new Error("read-only file system")) },
    )) as { systemMessage: string };
    expect(cut.systemMessage.startsWith("z".repeat(HOOK_OUTPUT_CAP))).toBe(true);
    expect(cut.systemMessage).toContain("could not be saved: read-only file system");
  });
});
