#!/usr/bin/env node
// The `a3s-demo-agent` command: runs the TypeScript CLI from source with tsx, resolving the
// workspace's packages to their src/ (the @a3s-lab/source condition), so no build is needed.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const child = spawn(
  process.execPath,
  [
    "--conditions=@a3s-lab/source",
    "--import",
    pathToFileURL(require.resolve("tsx")).href,
    cli,
    ...process.argv.slice(2),
  ],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
