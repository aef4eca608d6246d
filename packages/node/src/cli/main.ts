#!/usr/bin/env node
import { runCli } from "./run-cli.js";

/** Resolves once everything written so far has been handed to the OS. */
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => stream.write("", () => resolve()));

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
})
  .then(async (code) => {
    process.exitCode = code;
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    // A hook's stray background child must not keep the CLI alive once it has answered.
    setTimeout(() => process.exit(code), 1000).unref();
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
