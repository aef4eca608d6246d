#!/usr/bin/env node
// The `a3s-hooks` command. It sits outside dist/ so that a package manager can link it before
// the package is built (in a fresh clone of the repository); it runs the built CLI, an ES module
// with its own bundle of what it uses (see tsup.config.ts).
"use strict";
const { existsSync } = require("node:fs");
const { enableCompileCache } = require("node:module");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const cli = join(__dirname, "..", "dist", "cli", "a3s-hooks.js");
if (!existsSync(cli)) {
  process.stderr.write(
    "a3s-hooks: this copy of @a3s-lab/hooks-node is not built (dist/cli/a3s-hooks.js is missing).\n" +
      "In its repository, run `pnpm build`, or `pnpm a3s-hooks …` to run the CLI from source.\n",
  );
  process.exit(1);
}
// Node 22.1 and later keep V8's compiled code of the CLI's modules between runs, in the system's
// temporary folder (NODE_DISABLE_COMPILE_CACHE=1 turns it off); Node 20 has no such cache.
enableCompileCache?.();
import(pathToFileURL(cli).href).catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
