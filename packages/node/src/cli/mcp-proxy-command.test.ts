import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { programArgs } from "../../../../test-support/program-bundles.ts";
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

const notFound = async (specifier: string) => {
  throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
};

const repo = resolve(import.meta.dirname, "../../../..");

/**
 * `pnpm a3s-hooks …` as a real process: the CLI from source, bundled once per run
 * (test/programs.ts), in `cwd`. The bundle keeps each source file's `import.meta.url`, so the
 * CLI finds the sibling package's source as it does when tsx runs `main.ts`; tsx's loader (by
 * its absolute path, so nothing resolves from `cwd`) then imports that TypeScript.
 */
function fromSource(args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), ...programArgs("a3s-hooks", args)],
      { cwd, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("a3s-hooks mcp-proxy", () => {
  it("says which package to install, and where, when @a3s-lab/hooks-mcp is missing", async () => {
    dir = mkdtempSync(join(tmpdir(), "a3s-no-mcp-"));
    const out = io(dir);
    const run = mcpProxyCommand(["--", "mcp-server-filesystem", "."], out.io, () =>
      loadMcpPackage(notFound, pathToFileURL(join(dir!, "cli", "main.js")).href),
    );
    await expect(run).rejects.toThrow(
      expect.objectContaining({
        name: "CliError",
        message: "mcp-proxy needs @a3s-lab/hooks-mcp, which is not installed beside this a3s-hooks",
        hint: expect.stringContaining("npm install @a3s-lab/hooks-mcp"),
      }),
    );
  });

  it("passes on any other failure to load the package", async () => {
    const broken = async () => {
      throw new SyntaxError("Unexpected token in @a3s-lab/hooks-mcp/dist/index.js");
    };
    await expect(loadMcpPackage(broken)).rejects.toThrow(SyntaxError);
  });

  it("hands every argument after mcp-proxy, flags included, to the package", async () => {
    const runMcpProxyCli = vi.fn(async () => 7);
    const out = io("/");
    const argv = ["--settings", "a.json", "--", "npx", "-y", "server", "--flag"];
    expect(await mcpProxyCommand(argv, out.io, async () => ({ runMcpProxyCli }))).toBe(7);
    expect(runMcpProxyCli).toHaveBeenCalledWith(argv, out.io);
  });

  it("in a checkout of the repository, loads the sibling package (its source when running from source)", async () => {
    const onlyFiles = async (specifier: string) => {
      if (!specifier.startsWith("file:")) return notFound(specifier);
      return { runMcpProxyCli: async () => 0, from: specifier };
    };
    const mcp = (await loadMcpPackage(onlyFiles)) as unknown as { from: string };
    expect(mcp.from).toBe(pathToFileURL(join(repo, "packages/mcp/src/index.ts")).href);
  });

  it("never imports a @a3s-lab/hooks-mcp from the folder it runs in; from the checkout root it works", async () => {
    dir = mkdtempSync(join(tmpdir(), "a3s-hostile-cwd-"));
    const canary = join(dir, "CANARY");
    const fake = join(dir, "node_modules", "@a3s-lab", "hooks-mcp");
    mkdirSync(fake, { recursive: true });
    writeFileSync(
      join(fake, "package.json"),
      JSON.stringify({
        name: "@a3s-lab/hooks-mcp",
        type: "module",
        main: "index.js",
        exports: "./index.js",
      }),
    );
    const plant = `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(canary)}, "ran");
export async function runMcpProxyCli() { return 0; }`;
    writeFileSync(join(fake, "index.js"), plant);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "cloned", type: "module" }));
    const [hostile, checkout] = await Promise.all([
      fromSource(["mcp-proxy", "--help"], dir),
      fromSource(["mcp-proxy", "--help"], repo),
    ]);
    expect(existsSync(canary)).toBe(false);
    // The help goes to stderr: stdout is the MCP stream.
    expect(hostile).toMatchObject({
      code: 0,
      stderr: expect.stringContaining("usage: a3s-hooks mcp-proxy"),
    });
    expect(checkout).toMatchObject({
      code: 0,
      stderr: expect.stringContaining("usage: a3s-hooks mcp-proxy"),
    });
  }, 60_000);

  it("is listed in --help", async () => {
    const out = io("/");
    expect(await runCli(["--help"], out.io)).toBe(0);
    expect(out.stdout()).toContain("mcp-proxy");
  });
});
