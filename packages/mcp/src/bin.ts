#!/usr/bin/env node
import { runMcpProxyCli } from "./run-mcp-proxy-cli.js";

// `a3s-hooks-mcp [options] -- <server command…>`: the same as `a3s-hooks mcp-proxy`, as a bin
// of its own so an MCP client's config can name just this package (`npx -y @a3s-lab/hooks-mcp`).
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
// No top-level await: the bin is also built as CommonJS.
void runMcpProxyCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: stop.signal,
}).then((code) => {
  process.exitCode = code;
  // A hook's stray background child must not keep the proxy alive once the session is over.
  setTimeout(() => process.exit(code), 1000).unref();
});
