#!/usr/bin/env node
// Run by each package's `build` after tsup, in the package's folder. tsup bundles the
// declarations `tsc -b` already emitted (.tsbuild/src/*.d.ts) rather than computing the types a
// second time, and rollup names a shared chunk after its first module's file name minus the last
// extension: `wire-response.d-<hash>.d.ts` where a build from the sources wrote
// `wire-response-<hash>.d.ts`. This gives the chunks (and every import of them) the names a build
// from the sources gives, so the tarballs ship the same files under the same names.
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dist = join(process.cwd(), "dist");
const chunk = /^(.+)\.d-([A-Za-z0-9_-]+)\.d\.(c?ts)$/;
const renamed = new Map();
for (const file of readdirSync(dist)) {
  const match = file.match(chunk);
  if (!match) continue;
  const [, name, hash, ext] = match;
  renameSync(join(dist, file), join(dist, `${name}-${hash}.d.${ext}`));
  renamed.set(`${name}.d-${hash}`, `${name}-${hash}`);
}
if (renamed.size > 0) {
  for (const file of readdirSync(dist)) {
    if (!/\.d\.c?ts$/.test(file)) continue;
    const path = join(dist, file);
    const text = readFileSync(path, "utf8");
    const fixed = text.replace(/(['"]\.\/)([^'"]+)(\.c?js['"])/g, (all, open, base, close) =>
      renamed.has(base) ? `${open}${renamed.get(base)}${close}` : all,
    );
    if (fixed !== text) writeFileSync(path, fixed);
  }
}
