import { readFileSync } from "node:fs";

/**
 * The process's soft limit on open files (`ulimit -n`), read from `/proc/self/limits`;
 * undefined where that file does not exist (macOS, Windows) or says "unlimited".
 */
export function openFileLimit(read: (path: string) => string = readText): number | undefined {
  let text: string;
  try {
    text = read("/proc/self/limits");
  } catch {
    return undefined;
  }
  const match = /^Max open files\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

function readText(path: string): string {
  return readFileSync(path, "utf8");
}

/**
 * Connections a hook server holds by default, given the {@link openFileLimit}: half the descriptors the process may open (the
 * other half stays free for command hooks, tools and files), at most 10 000, and 1000 where
 * the limit cannot be read.
 */
export function defaultMaxConnections(limit: number | undefined): number {
  if (limit === undefined) return 1000;
  return Math.max(16, Math.min(10_000, Math.floor(limit / 2)));
}
