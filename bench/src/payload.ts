import { createEvent, type PreToolUseEvent } from "@a3s-lab/hooks-core";

/**
 * A PreToolUse event whose JSON is `bytes` long (give or take a few): a Write of a small file,
 * the size the "1 KB event" rows use.
 */
export function eventOfSize(bytes: number): PreToolUseEvent {
  const base = createEvent("PreToolUse", {
    sessionId: "bench-session-0001",
    tool: "Write",
    args: { file_path: "/workspace/project/src/index.ts", content: "" },
    eventId: "00000000-0000-4000-8000-000000000000",
    timestamp: 1_700_000_000_000,
  });
  const pad = Math.max(0, bytes - JSON.stringify(base).length);
  return { ...base, args: { ...base.args, content: "x".repeat(pad) } };
}
