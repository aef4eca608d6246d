#!/usr/bin/env node
// Checks hooks-node's house plan: no import cycle between source files, and no arrow from a
// room to a room on the same or a higher floor. Type-only imports count too: a cycle of types
// is still a knot a reader has to untie. Tests may import any room (they test rooms together),
// so they are left out. Run by the package's test command; `node scripts/check-rooms.mjs`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

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

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The room of a file (its path from src/): the most specific room that holds it. */
function roomOf(file) {
  let best;
  for (const [floor, rooms] of FLOORS.entries()) {
    for (const room of rooms) {
      const holds = room.endsWith(".ts") ? file === room : file.startsWith(`${room}/`);
      if (holds && (best === undefined || room.length > best.room.length)) best = { room, floor };
    }
  }
  return best;
}

/** Relative imports of a file (static, dynamic, `export … from`, type-only alike), as paths from src/. */
function importsOf(path, src) {
  const info = ts.preProcessFile(readFileSync(path, "utf8"), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(src, resolve(dirname(path), name.replace(/\.js$/, ".ts"))))
    .filter((name) => !name.startsWith(".."));
}

export function checkRooms(src = SRC, knownCycles = KNOWN_CYCLES) {
  const problems = [];
  const graph = new Map();
  for (const path of sourceFiles(src)) {
    const file = relative(src, path);
    graph.set(file, importsOf(path, src));
  }
  for (const [file, imports] of graph) {
    const from = roomOf(file);
    if (!from) {
      problems.push(`${file}: in no room of the house plan (add its folder to FLOORS)`);
      continue;
    }
    for (const target of imports) {
      const to = roomOf(target);
      if (!to || to.room === from.room) continue;
      if (ENTERED_BY_INDEX.includes(to.room) && target !== `${to.room}/index.ts`)
        problems.push(`${file} imports ${target}: enter ${to.room} through its index.ts`);
      if (to.floor < from.floor) continue;
      const how = to.floor === from.floor ? "beside it" : "upstairs";
      problems.push(`${file} imports ${target}: ${to.room} is ${how} of ${from.room}`);
    }
  }
  // Cycles: Tarjan's strongly connected components; any with two files or more is a cycle.
  let index = 0;
  const stack = [];
  const state = new Map();
  const visit = (file) => {
    const s = { index, low: index, onStack: true };
    index++;
    state.set(file, s);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      const t = state.get(next);
      if (t === undefined) {
        visit(next);
        s.low = Math.min(s.low, state.get(next).low);
      } else if (t.onStack) s.low = Math.min(s.low, t.index);
    }
    if (s.low === s.index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== file);
      const cycle = component.sort().join(" ↔ ");
      if (component.length > 1) {
        if (knownCycles.includes(cycle)) known.add(cycle);
        else problems.push(`import cycle: ${cycle}`);
      }
    }
  };
  const known = new Set();
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  for (const cycle of knownCycles)
    if (!known.has(cycle))
      problems.push(`known cycle gone (remove it from KNOWN_CYCLES): ${cycle}`);
  return problems;
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
