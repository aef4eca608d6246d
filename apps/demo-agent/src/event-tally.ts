import type { HookEventName } from "@a3s-lab/hooks-core";
import { demoEventNames } from "./demo-events.js";
import type { Firing } from "./firings.js";
import type { Style } from "./style.js";
import { mainArgument } from "./transcript.js";

/** Counts for one event. */
export interface TallyRow {
  event: HookEventName;
  fired: number;
  /** Hook runs, summed over the firings. */
  hooks: number;
  blocked: number;
  modified: number;
}

/**
 * Counts firings per event and keeps the decisions worth a summary line (blocks, rewrites,
 * permission answers). The `run` command prints it at the end.
 *
 * @example
 * ```ts
 * const tally = new EventTally();
 * onFiring(engine, (f) => tally.add(f));
 * console.log(tally.render(createStyle(false)));
 * ```
 */
export class EventTally {
  readonly #rows = new Map<HookEventName, TallyRow>(
    demoEventNames().map((event) => [
      event,
      { event, fired: 0, hooks: 0, blocked: 0, modified: 0 },
    ]),
  );
  readonly decisions: string[] = [];

  add({ event, result }: Firing): void {
    const row = this.#rows.get(event.eventType);
    if (!row) return;
    row.fired++;
    row.hooks += result.outcomes.filter((o) => !o.ignored).length;
    if (result.action === "block") row.blocked++;
    if (result.modified) row.modified++;
    const what =
      "tool" in event && typeof event.tool === "string"
        ? `${event.eventType} ${event.tool} ${mainArgument(event.tool, event.args)}`
        : event.eventType;
    if (event.eventType === "PermissionGranted" || event.eventType === "PermissionDenied") {
      const verb = event.eventType === "PermissionGranted" ? "granted" : "denied";
      this.decisions.push(
        `${event.tool} ${mainArgument(event.tool, event.args)}: permission ${verb} by ${event.decidedBy ?? "?"}`,
      );
    } else if (result.action === "block") {
      const reason = (result.reason ?? "").replace(/\s*\n\s*/g, " ⏎ ");
      this.decisions.push(
        `${what}: ${event.eventType === "Stop" ? "continue" : "blocked"}: ${reason}`,
      );
    } else if (result.modified) {
      this.decisions.push(`${what}: rewritten`);
    }
  }

  rows(): TallyRow[] {
    return [...this.#rows.values()];
  }

  /** Events that never fired. */
  missing(): HookEventName[] {
    return this.rows()
      .filter((r) => r.fired === 0)
      .map((r) => r.event);
  }

  render(s: Style): string {
    const header = `${"event".padEnd(20)} ${"fired".padStart(5)} ${"hooks".padStart(5)} ${"blocked".padStart(7)} ${"modified".padStart(8)}`;
    const lines = [s.bold(header), s.dim("─".repeat(header.length))];
    for (const r of this.rows()) {
      const line = `${r.event.padEnd(20)} ${String(r.fired).padStart(5)} ${String(r.hooks).padStart(5)} ${String(r.blocked).padStart(7)} ${String(r.modified).padStart(8)}`;
      lines.push(r.fired === 0 ? s.dim(line) : line);
    }
    const total = this.rows().reduce((n, r) => n + r.fired, 0);
    const covered = this.rows().filter((r) => r.fired > 0).length;
    lines.push(s.dim("─".repeat(header.length)));
    lines.push(`${covered} of ${this.#rows.size} events fired, ${total} firings in all`);
    if (this.decisions.length > 0) {
      lines.push("", s.bold("Decisions"));
      for (const d of this.decisions) {
        const paint = /blocked|denied/.test(d) ? s.red : /granted/.test(d) ? s.green : s.yellow;
        lines.push(`  ${paint("•")} ${d.length > 130 ? `${d.slice(0, 129)}…` : d}`);
      }
    }
    return lines.join("\n");
  }
}
