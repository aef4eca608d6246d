import { HookEngine } from "@a3s-lab/hooks-core";
import { afterEach } from "vitest";
import { createHookServer, type HookServerOptions } from "../../src/server/create-hook-server.js";

/**
 * Hook servers for a test file (or a suite): `serve()` starts one on a free loopback port with
 * `token` (unless `insecure`), records its warnings, and everything pushed on `cleanup` is
 * closed after each test, last first.
 */
export function useHookServers(token: string) {
  const cleanup: (() => unknown)[] = [];

  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function serve(options: Partial<HookServerOptions> = {}) {
    const engine = options.engine ?? new HookEngine();
    const auth = options.insecure ? {} : { token };
    const server = await createHookServer({ engine, port: 0, ...auth, ...options });
    cleanup.push(() => server.close());
    const warnings: string[] = [];
    server.on("warning", (w) => warnings.push(w.message));
    return { engine, server, warnings };
  }

  return { serve, cleanup };
}
