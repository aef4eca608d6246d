#!/usr/bin/env node
import { runCli } from "./run-cli.js";

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
    // A hook's stray background child must not keep the CLI alive once it has answered.
    setTimeout(() => process.exit(code), 1000).unref();
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
