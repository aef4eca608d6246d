import { basename, extname } from "node:path";
import { HookError } from "@a3s-lab/hooks-core";

/** The real MCP server the proxy starts as its child. */
export interface ServerCommand {
  /** The program to run (looked up on `PATH`), e.g. `npx` or `mcp-server-filesystem`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * The child's environment. Default: the proxy's whole environment, since an MCP client
   * starts the proxy with the variables it meant for the server.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The directory it runs in. Default: the proxy's own. */
  cwd?: string;
  /**
   * The server's name in tool names: hooks see `mcp__<name>__<tool>`, as in Claude Code.
   * Default: the command's file name without extension (`mcp-server-filesystem`). Characters
   * other than letters, digits, `_` and `-` become `_`.
   */
  name?: string;
}

/** The server's name as tool names carry it: what Claude Code does to a configured name. */
export function serverNameOf(server: ServerCommand): string {
  const raw = server.name ?? basename(server.command, extname(server.command));
  const name = raw.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name === "") {
    throw new HookError("INVALID_CONFIG", "server.name: expected a non-empty name", {
      path: ["server", "name"],
    });
  }
  return name;
}

/** `mcp__<server>__<tool>`: the name PreToolUse matchers test, as in Claude Code. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The environment for the child, without unset variables. */
export function childEnv(
  env: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env ?? process.env)) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Keeps the last `max` bytes of a stream as text: what the server said on stderr before it
 * died, for the error the client and the user see.
 */
export class OutputTail {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(max: number) {
    this.#max = max;
  }

  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.#chunks.push(buffer);
    this.#size += buffer.length;
    while (this.#size - (this.#chunks[0]?.length ?? 0) >= this.#max && this.#chunks.length > 1) {
      this.#size -= this.#chunks.shift()!.length;
    }
  }

  /** The kept text, trimmed; a cut at the front is marked with `…`. */
  text(): string {
    const all = Buffer.concat(this.#chunks);
    const cut = all.length > this.#max;
    const kept = cut ? all.subarray(all.length - this.#max) : all;
    return `${cut ? "…" : ""}${kept.toString("utf8")}`.trim();
  }
}
