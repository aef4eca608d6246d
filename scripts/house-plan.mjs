// The house-plan check shared by the packages: no import cycle between source files, and no
// arrow from a room to a room on the same or a higher floor. Type-only imports count too: a
// cycle of types is still a knot a reader has to untie. Tests may import any room (they test
// rooms together), so they are left out. Each package's `scripts/check-rooms.mjs` holds its plan.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

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
function roomOf(floors, file) {
  let best;
  for (const [floor, rooms] of floors.entries()) {
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

/**
 * Checks a package's house plan: `floors` lists its rooms, lowest first (see a package's
 * `scripts/check-rooms.mjs`). Answers the problems found, one line each; none is a clean house.
 */
export function checkHouse({ src, floors, enteredByIndex = [], knownCycles = [] }) {
  const problems = [];
  const graph = new Map();
  for (const path of sourceFiles(src)) {
    const file = relative(src, path);
    graph.set(file, importsOf(path, src));
  }
  for (const [file, imports] of graph) {
    const from = roomOf(floors, file);
    if (!from) {
      problems.push(`${file}: in no room of the house plan (add its folder to FLOORS)`);
      continue;
    }
    for (const target of imports) {
      const to = roomOf(floors, target);
      if (!to || to.room === from.room) continue;
      if (enteredByIndex.includes(to.room) && target !== `${to.room}/index.ts`)
        problems.push(`${file} imports ${target}: enter ${to.room} through its index.ts`);
      if (to.floor < from.floor) continue;
      const where = to.floor === from.floor ? "on the same floor as" : "upstairs of";
      problems.push(`${file} imports ${target}: ${to.room} is ${where} ${from.room}`);
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
