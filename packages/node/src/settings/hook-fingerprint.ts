import { createHash } from "node:crypto";
import type { SettingsHook } from "./hook-settings.js";
import { canonicalJson } from "./json-text.js";

/**
 * A hook's id for `trust --hook`, `disable` and `enable`: 12 hex digits of the SHA-256 of its
 * format, file, event and matcher (in its own agent's words) and its definition (the command and
 * the options that change how it runs). Stable across loads and reorderings of the file; an
 * edited hook is another hook, so trust given to the old one does not carry over (as Codex and
 * Gemini CLI trust hooks one by one).
 */
export function hookFingerprint(hook: SettingsHook): string {
  const { type: _type, ...definition } = hook.definition as unknown as Record<string, unknown>;
  const key = {
    format: hook.origin?.format ?? "claude-code",
    file: hook.source,
    event: hook.origin?.event ?? hook.event,
    matcher: hook.origin ? (hook.origin.matcher ?? null) : (hook.matcher ?? null),
    if: hook.if ?? null,
    type: hook.type,
    definition,
  };
  return createHash("sha256").update(canonicalJson(key)).digest("hex").slice(0, 12);
}
