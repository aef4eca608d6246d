#!/usr/bin/env node
// The `a3s-hooks-mcp` command. It sits outside dist/ so that a package manager can link it
// before the package is built (in a fresh clone of the repository); it runs the built proxy.
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const bin = join(__dirname, "..", "dist", "bin.cjs");
if (!existsSync(bin)) {
  process.stderr.write(
    "a3s-hooks-mcp: this copy of @a3s-lab/hooks-mcp is not built (dist/bin.cjs is missing).\n" +
      "In its repository, run `pnpm build` first.\n",
  );
  process.exit(1);
}
require(bin);
