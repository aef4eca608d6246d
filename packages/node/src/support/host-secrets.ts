/**
 * The host's own secrets: the hook server's token and the model keys the host (or its prompt
 * hooks) pays for. This is the one list; every place that hands the host's environment to
 * something else starts from it, and its exceptions are written here, beside it:
 *
 * - **http hook headers** (`$VAR` in `headers`): never, whatever `allowedEnvVars` lists.
 * - **`.mcp.json` and `mcpServers` expansion** (`${VAR}` in `env`, URLs and headers): never; a
 *   project's file could otherwise send them to a URL of its choosing.
 * - **MCP servers' environment** (the stdio servers the pool starts, and the server
 *   `a3s-hooks mcp-proxy` wraps): never, except
 *   `OPENAI_API_KEY` when it is not the hooks' model key (`A3S_HOOKS_MODEL_API_KEY` is set, so
 *   the hooks pay with that one and `OPENAI_API_KEY` is the user's own, for the user's tools).
 * - **command hooks' environment**: none by default (a hook's stderr becomes the reason the
 *   model reads, so a careless hook would hand the model the token); those named in the host's
 *   `allowedSecrets` option or the settings' `commandHookAllowedSecrets` are passed on.
 */
export const HOST_SECRET_VARIABLES: ReadonlySet<string> = new Set([
  "A3S_TOKEN",
  "A3S_HOOKS_MODEL_API_KEY",
  "OPENAI_API_KEY",
  "OPENAI_ADMIN_KEY",
]);

/** Where a copy of the host's environment goes (see {@link HOST_SECRET_VARIABLES}). */
export type HostSecretUse = "command-hook" | "mcp-server";

/** True when the hooks' model key is `OPENAI_API_KEY` (no `A3S_HOOKS_MODEL_API_KEY` of their own). */
function openAiKeyIsHooksKey(env: Readonly<Record<string, string | undefined>>): boolean {
  return !env.A3S_HOOKS_MODEL_API_KEY?.trim();
}

/**
 * A copy of `env` without the host's secrets, keeping only the exceptions written above for
 * `use` (and, for command hooks, the names in `allow`). Undefined values are dropped.
 */
export function withoutHostSecrets(
  env: Readonly<Record<string, string | undefined>>,
  use: HostSecretUse,
  allow: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (HOST_SECRET_VARIABLES.has(name) && !passes(name, env, use, allow)) continue;
    out[name] = value;
  }
  return out;
}

function passes(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
  use: HostSecretUse,
  allow: readonly string[],
): boolean {
  if (use === "command-hook") return allow.includes(name);
  return name === "OPENAI_API_KEY" && !openAiKeyIsHooksKey(env);
}
