#!/usr/bin/env node
import { main } from "./main.js";
import { nodeHookSources } from "./node-hook-sources.js";

// The entry point: real streams, real signals, real exit code. Everything testable is in main.ts.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => stop.abort(signal));
}
const code = await main(
  process.argv.slice(2),
  {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  },
  {
    // `run` plays in a folder it filled itself, so it vouches for the skills it put there.
    hookSources: (command) => nodeHookSources({ trustProjectSkills: command === "run" }),
    stop: stop.signal,
  },
);
process.exitCode = code;
