import type { HookFormatName } from "../hook-settings.js";
import { codexFormat } from "./codex-format.js";
import { copilotFormat } from "./copilot-format.js";
import { cursorFormat } from "./cursor-format.js";
import { geminiFormat } from "./gemini-format.js";
import type { HookFormat } from "./hook-format.js";
import { kiroFormat } from "./kiro-format.js";
import { windsurfFormat } from "./windsurf-format.js";

/** Every other agent's format read here, by name: the one list (a new format is one line). */
export const HOOK_FORMATS: { readonly [N in HookFormatName]: HookFormat & { name: N } } = {
  cursor: cursorFormat as HookFormat & { name: "cursor" },
  gemini: geminiFormat as HookFormat & { name: "gemini" },
  copilot: copilotFormat as HookFormat & { name: "copilot" },
  codex: codexFormat as HookFormat & { name: "codex" },
  windsurf: windsurfFormat as HookFormat & { name: "windsurf" },
  kiro: kiroFormat as HookFormat & { name: "kiro" },
};

/** The format a path names by its place (`.cursor/hooks.json`), or undefined for ours. */
export function detectFormat(path: string): HookFormat | undefined {
  return Object.values(HOOK_FORMATS).find((f) => f.matchesPath(path));
}
