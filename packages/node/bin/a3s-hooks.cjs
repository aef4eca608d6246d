#!/usr/bin/env node
// The `a3s-hooks` command. It sits outside dist/ so that a package manager can link it before
// the package is built (in a fresh clone of the repository); it runs the built CLI.
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const cli = join(__dirname, "..", "dist", "cli.cjs");
if (!existsSync(cli)) {
  process.stderr.write(
    "a3s-hooks: this copy of @a3s-lab/hooks-node is not built (dist/cli.cjs is missing).\n" +
      "In its repository, run `pnpm build`, or `pnpm a3s-hooks …` to run the CLI from source.\n",
  );
  process.exit(1);
}
require(cli);
