#!/usr/bin/env node
// hooks-node's house plan, checked by the shared `scripts/house-plan.mjs` (no import cycle, no
// arrow upstairs or beside). Run by the package's test command; `node scripts/check-rooms.mjs`.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkHouse } from "../../../scripts/house-plan.mjs";

/**
 * The floors, lowest first. A room is a folder under src/, or one file where a folder holds a
 * file above its siblings. A file may import its own room and any room on a lower floor; rooms
 * on one floor do not import each other (so a new hook type or transport is one more room
 * there, and nothing beside it changes).
 */
export const FLOORS = [
  ["support", "otel", "audit", "approvals"],
  ["shell", "workspace"],
  ["handlers"],
  ["handlers/command", "handlers/http", "handlers/model", "handlers/mcp-tool"],
  ["handlers/settings-handler.ts"],
  ["settings"],
  ["hub"],
  ["grpc", "ws"],
  ["server"],
  ["cli"],
  ["index.ts", "internal.ts", "grpc-client.ts", "otel.ts", "workspace.ts", "approvals.ts"],
];

/** Rooms entered only through their `index.ts`: what is inside may change without notice. */
export const ENTERED_BY_INDEX = ["shell"];

/**
 * Cycles known and not yet untied, each a set of files (sorted, joined by " ↔ "). None today: a
 * cycle not listed here fails the check, and so does a listed one that is gone (so the list
 * cannot go stale).
 */
export const KNOWN_CYCLES = [];

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

export function checkRooms(src = SRC, knownCycles = KNOWN_CYCLES) {
  return checkHouse({ src, floors: FLOORS, enteredByIndex: ENTERED_BY_INDEX, knownCycles });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkRooms();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-rooms: ${problems.length} problem(s) in hooks-node's house plan`);
    process.exit(1);
  }
  console.log("check-rooms: no import cycle, no arrow upstairs or beside");
}
