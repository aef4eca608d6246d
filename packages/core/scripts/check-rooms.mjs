#!/usr/bin/env node
// hooks-core's house plan, checked by the shared `scripts/house-plan.mjs` (no import cycle, no
// arrow upstairs or beside). Run by the package's test command; `node scripts/check-rooms.mjs`.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkHouse } from "../../../scripts/house-plan.mjs";

/**
 * The floors, lowest first; each room is a folder under src/ and matches a section of the
 * package's entry points:
 * - `base`: errors, input checks, JSON limits, timers, the typed emitter: nothing about hooks.
 * - `events`: the event schemas and registry, `createEvent`, Claude Code's names.
 * - `merge`: what a hook answers (`HookResponse`) and how answers fold into one result.
 * - `audit`: the audit records and their readers.
 * - `engine`: `HookEngine`, matching, firing, middleware, the tool and permission flows.
 * - `wire`: hooks.proto's messages, frames and the client's transport seam (beside the engine:
 *   a transport never needs it, and it never needs a transport).
 */
export const FLOORS = [
  ["base"],
  ["events"],
  ["merge"],
  ["audit"],
  ["engine", "wire"],
  ["index.ts", "internal.ts", "wire.ts"],
];

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

export function checkRooms(src = SRC) {
  return checkHouse({ src, floors: FLOORS });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkRooms();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-rooms: ${problems.length} problem(s) in hooks-core's house plan`);
    process.exit(1);
  }
  console.log("check-rooms: no import cycle, no arrow upstairs or beside");
}
