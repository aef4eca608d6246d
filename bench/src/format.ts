import type { Side, Unit } from "./row.js";

/** A time in nanoseconds as a short human string: `37 ns`, `12.3 µs`, `4.56 ms`. */
export function formatTime(ns: number): string {
  if (ns < 1000) return `${ns < 10 ? ns.toFixed(1) : Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** A size in bytes: `136 B`, `12.3 kB`, `41.2 MB` (decimal units, as the goals are written). */
export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) < 1000) return `${Math.round(bytes)} B`;
  if (Math.abs(bytes) < 1e6) return `${(bytes / 1e3).toPrecision(3)} kB`;
  return `${(bytes / 1e6).toPrecision(3)} MB`;
}

export function formatValue(value: number | undefined, unit: Unit): string {
  if (value === undefined) return "–";
  return unit === "B" ? formatBytes(value) : formatTime(value);
}

export function formatRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString("en-US")}/s`;
}

/**
 * The label of a side with its throughput and CPU, when it has them (not the CPU when it is
 * the side's median already: the median column shows it).
 */
export function describeSide(s: Side): string {
  const extra: string[] = [];
  if (s.throughput !== undefined) extra.push(formatRate(s.throughput));
  if (s.cpu !== undefined && s.cpu !== s.median) extra.push(`${formatTime(s.cpu)} CPU/event`);
  return extra.length > 0 ? `${s.label} (${extra.join(", ")})` : s.label;
}

export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return "–";
  return `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
}
