import path from "node:path";
import type { HookEvent, HookEventMap, HookResult, ToolArgs } from "@a3s-lab/hooks-core";
import type { Firing } from "./firings.js";
import type { Style } from "./style.js";

function oneLine(text: string, max = 96): string {
  const lines = text.trim().split("\n");
  let first = lines[0] ?? "";
  if (first.length > max) first = `${first.slice(0, max - 1)}…`;
  return lines.length > 1 ? `${first} (+${lines.length - 1} lines)` : first;
}

/** The argument that says most about a call: the command, the path, the pattern. */
export function mainArgument(tool: string, args: ToolArgs): string {
  const pick = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : undefined);
  const main =
    tool === "Task"
      ? pick("description")
      : tool === "Skill"
        ? pick("name")
        : (pick("command") ?? pick("file_path") ?? pick("pattern") ?? pick("path"));
  return main === undefined ? JSON.stringify(args) : oneLine(main, 80);
}

/** The names of the hooks that changed the event, for "rewritten by …". */
function modifiers(result: HookResult): string {
  const names = result.outcomes
    .filter((o) => o.modifiedPaths?.length)
    .map((o) => o.name ?? o.hookId);
  return names.length ? ` (${names.join(", ")})` : "";
}

function blocker(result: HookResult): string {
  const o = result.outcomes.find((x) => x.hookId === result.blockedBy);
  return o ? ` (${o.name ?? o.hookId})` : "";
}

function changedArgs(before: ToolArgs, after: ToolArgs): string {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const parts: string[] = [];
  for (const key of keys) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(after[key]);
    if (a !== b) parts.push(`${key}: ${a ?? "(none)"} → ${b ?? "(removed)"}`);
  }
  return parts.join(", ");
}

/**
 * Turns the stream of firings into a readable transcript, one line (or two) per step worth
 * seeing. Events inside a subagent are indented under it.
 *
 * @example
 * ```ts
 * const transcript = new Transcript(createStyle(true), (line) => console.log(line));
 * onFiring(engine, (f) => transcript.render(f));
 * ```
 */
export class Transcript {
  readonly #s: Style;
  readonly #write: (line: string) => void;

  constructor(style: Style, write: (line: string) => void) {
    this.#s = style;
    this.#write = write;
  }

  /** A line of narration between steps (the scenario's captions). */
  note(text: string): void {
    this.#write("");
    this.#write(this.#s.bold(this.#s.blue(`## ${text}`)));
  }

  render(firing: Firing): void {
    const { event, result } = firing;
    const inSubagent = typeof event.metadata.subagentId === "string";
    const pad = inSubagent ? "  │ " : "  ";
    for (const line of this.#lines(event, result)) this.#write(pad + line);
  }

  #lines(event: HookEvent, result: HookResult): string[] {
    const s = this.#s;
    const blocked = result.action === "block";
    switch (event.eventType) {
      case "SessionStart":
        return [
          s.dim(
            `● session ${event.sessionId.slice(0, 8)} started (${event.source}) in ${event.workingDirectory ?? "?"}`,
          ),
        ];
      case "SessionEnd":
        return [s.dim(`● session ${event.sessionId.slice(0, 8)} ended (${event.reason})`)];
      case "UserPromptSubmit": {
        const after = (result.event as HookEventMap["UserPromptSubmit"]).prompt;
        const lines = [s.bold(`› ${oneLine(event.prompt.replace(/\n/g, " ⏎ "), 110)}`)];
        if (blocked) lines.push(s.red(`  ✖ prompt blocked${blocker(result)}: ${result.reason}`));
        else if (result.modified)
          lines.push(s.yellow(`  ✎ prompt rewritten${modifiers(result)}: ${oneLine(after, 100)}`));
        return lines;
      }
      case "GenerateStart":
        return blocked ? [s.red(`✖ generation blocked${blocker(result)}: ${result.reason}`)] : [];
      case "GenerateEnd": {
        const text = (result.event as HookEventMap["GenerateEnd"]).response.text;
        return text ? [s.cyan(`◆ ${oneLine(text, 110)}`)] : [];
      }
      case "PreToolUse": {
        const lines = [
          `${s.magenta("⚙")} ${s.bold(event.tool)} ${mainArgument(event.tool, event.args)}`,
        ];
        if (result.stopTurn?.deferred) {
          // Claude Code's `defer`: the call waits for a person (or the turn just stops).
          const why = result.stopTurn.reason ? `: ${result.stopTurn.reason}` : "";
          lines.push(s.yellow(`  ⏸ deferred by a hook${blocker(result)}${why}`));
        } else if (blocked)
          lines.push(s.red(`  ✖ blocked by a hook${blocker(result)}: ${result.reason}`));
        else if (result.modified) {
          const after = (result.event as HookEventMap["PreToolUse"]).args;
          lines.push(
            s.yellow(
              `  ✎ arguments rewritten${modifiers(result)}: ${changedArgs(event.args, after)}`,
            ),
          );
        }
        return lines;
      }
      case "PermissionRequest":
        return [s.yellow(`  ? permission requested: ${event.reason ?? event.tool}`)];
      case "PermissionGranted":
        return [
          s.green(`  ✔ permission granted by ${event.decidedBy ?? "?"}: ${event.reason ?? ""}`),
        ];
      case "PermissionDenied":
        return [s.red(`  ✖ permission denied by ${event.decidedBy ?? "?"}: ${event.reason ?? ""}`)];
      case "PostToolUse": {
        const output = (result.event as HookEventMap["PostToolUse"]).result.output;
        const lines = [s.dim(`  ↳ ${oneLine(output) || "(no output)"}`)];
        if (result.modified) lines.push(s.yellow(`  ✎ output rewritten${modifiers(result)}`));
        if (result.feedback) lines.push(s.yellow(`  ⚑ hook feedback: ${oneLine(result.feedback)}`));
        if (result.additionalContext)
          lines.push(s.yellow(`  + hook context: ${oneLine(result.additionalContext)}`));
        return lines;
      }
      case "PostToolUseFailure":
        return [s.red(`  ↳ failed: ${oneLine(event.error)}`)];
      case "ContextWarning":
        return [
          s.yellow(
            `⚠ context at ${Math.round((event.usedTokens / event.maxTokens) * 100)}% of ${event.maxTokens} tokens (warns at ${Math.round(event.threshold * 100)}%)`,
          ),
        ];
      case "PreCompact":
        return [
          blocked
            ? s.red(`⟳ compaction refused${blocker(result)}: ${result.reason}`)
            : s.blue(
                `⟳ compacting (${event.trigger}): ${event.messageCount ?? "?"} messages, ~${event.tokenCount ?? "?"} tokens`,
              ),
        ];
      case "PostCompact":
        return [
          s.blue(
            `⟳ compacted: ${event.messagesBefore} → ${event.messagesAfter} messages, ~${event.tokensBefore} → ~${event.tokensAfter} tokens`,
          ),
        ];
      case "SubagentStart": {
        const description = (result.event as HookEventMap["SubagentStart"]).description;
        if (blocked) return [s.red(`✖ subagent refused${blocker(result)}: ${result.reason}`)];
        return [
          s.magenta(
            `┌ subagent ${event.subagentId} (${event.subagentType}): ${oneLine(description, 80)}`,
          ),
        ];
      }
      case "SubagentStop":
        return [
          event.success
            ? s.magenta(`└ subagent ${event.subagentId} done: ${oneLine(event.output ?? "", 80)}`)
            : s.red(`└ subagent ${event.subagentId} failed: ${event.error ?? ""}`),
        ];
      case "SkillLoad":
        return [
          blocked
            ? s.red(`✖ skill ${event.skillName} refused${blocker(result)}: ${result.reason}`)
            : s.green(
                `✚ skill ${event.skillName} loaded${event.description ? `: ${event.description}` : ""}`,
              ),
        ];
      case "SkillUnload":
        return [s.dim(`− skill ${event.skillName} unloaded (its hooks are gone)`)];
      case "Notification": {
        const paint =
          event.level === "error" ? s.red : event.level === "warning" ? s.yellow : s.dim;
        return [paint(`✉ ${event.notificationType}: ${oneLine(event.message)}`)];
      }
      case "InstructionsLoaded":
        return [
          s.dim(`☰ instructions loaded: ${path.basename(event.filePath)} (${event.loadReason})`),
        ];
      case "CwdChanged":
        return [s.blue(`↳ cwd: ${event.oldCwd} → ${event.newCwd}`)];
      case "FileChanged":
        return [
          s.blue(
            `◎ watched file ${event.fileName} ${event.event === "add" ? "created" : "changed"}${result.additionalContext ? `: ${oneLine(result.additionalContext)}` : ""}`,
          ),
        ];
      case "ConfigChange":
        return [
          blocked
            ? s.red(`✖ settings change refused${blocker(result)}: ${oneLine(result.reason ?? "")}`)
            : s.blue(
                `⚙ settings changed (${event.source}): ${path.basename(event.filePath ?? "")}`,
              ),
        ];
      case "StopFailure":
        return [
          s.red(
            `✖ turn failed: ${event.error}${event.errorDetails ? ` (${oneLine(event.errorDetails)})` : ""}`,
          ),
        ];
      case "Stop":
        return blocked
          ? [
              s.yellow(
                `⏎ Stop hook says keep going${blocker(result)}: ${oneLine(result.reason ?? "")}`,
              ),
            ]
          : [s.dim(`■ stop${event.stopHookActive ? " (after a Stop hook continuation)" : ""}`)];
      default:
        return [];
    }
  }
}
