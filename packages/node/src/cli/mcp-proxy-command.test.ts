import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CliIo } from "./cli-context.js";
import { loadMcpPackage, mcpProxyCommand } from "./mcp-proxy-command.js";
import { runCli } from "./run-cli.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function io(cwd: string) {
  let stderr = "";
  let stdout = "";
  const value: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: (async function* () {})(),
    cwd,
    env: {},
  };
  return { io: value, stderr: () => stderr, stdout: () => stdout };
}

describe("a3s-hooks mcp-proxy", () => {
  it("says which package to install when @a3s-lab/hooks-mcp is missing", async () => {
    dir = mkdtempSync(join(tmpdir(), "a3s-no-mcp-"));
    const missing = async (specifier: string) => {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
        code: "ERR_MODULE_NOT_FOUND",
      });
    };
    const out = io(dir);
    const run = mcpProxyCommand(["--", "mcp-server-filesystem", "."], out.io, (cwd) =>
      loadMcpPackage(cwd, missing),
    );
    await expect(run).rejects.toThrow(
      expect.objectContaining({
        name: "CliError",
        message: "mcp-proxy needs @a3s-lab/hooks-mcp, which is not installed",
        hint: expect.stringContaining("npm install @a3s-lab/hooks-mcp"),
      }),
    );
  });

  it("passes on any other failure to load the package", async () => {
    const broken = async () => {
      throw new SyntaxError("Unexpected token in @a3s-lab/hooks-mcp/dist/index.js");
    };
    await expect(loadMcpPackage("/", broken)).rejects.toThrow(SyntaxError);
  });

  it("hands every argument after mcp-proxy, flags included, to the package", async () => {
    const runMcpProxyCli = vi.fn(async () => 7);
    const out = io("/");
    const argv = ["--settings", "a.json", "--", "npx", "-y", "server", "--flag"];
    expect(await mcpProxyCommand(argv, out.io, async () => ({ runMcpProxyCli }))).toBe(7);
    expect(runMcpProxyCli).toHaveBeenCalledWith(argv, out.io);
  });

  it("finds the package in the project it runs in when it is not beside this one", async () => {
    // The workspace's examples depend on hooks-mcp; resolve it from there, by file URL.
    const examples = join(import.meta.dirname, "../../../../examples");
    const onlyFiles = async (specifier: string) => {
      if (!specifier.startsWith("file:")) {
        throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
          code: "ERR_MODULE_NOT_FOUND",
        });
      }
      return { runMcpProxyCli: async () => 0, from: specifier };
    };
    const mcp = (await loadMcpPackage(examples, onlyFiles)) as unknown as { from: string };
    expect(mcp.from).toMatch(/^file:.*\/packages\/mcp\//);
  });

  it("is listed in --help", async () => {
    const out = io("/");
    expect(await runCli(["--help"], out.io)).toBe(0);
    expect(out.stdout()).toContain("mcp-proxy");
  });
});
