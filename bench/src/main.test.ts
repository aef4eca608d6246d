import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const benchRoot = fileURLToPath(new URL("..", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `pnpm bench` as CI runs it: run.mjs bundles, then runs the bundle in a fresh node. */
function bench(...args: string[]) {
  return spawnSync(process.execPath, ["run.mjs", ...args], {
    cwd: benchRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("pnpm bench", () => {
  it("prints its usage, listing the suites", () => {
    const run = bench("--help");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: pnpm bench [--smoke]");
    expect(run.stdout).toContain(
      "fire-no-match, fire-hooks, matchers, command, remote-grpc, remote-ws, memory",
    );
  });

  it("exits 2 with the flag named when the command line is wrong", () => {
    const run = bench("--smoke", "--only", "nonsense");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('bench: INVALID_OPTION: --only: unknown suite "nonsense"');
  });

  it("writes results.md and results.json where it is told", () => {
    const out = mkdtempSync(join(tmpdir(), "a3s-bench-"));
    dirs.push(out);
    const run = bench("--smoke", "--only", "matchers", "--out", out);
    expect(run.status, run.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(json).toMatchObject({ version: 1, mode: "smoke", pending: [] });
    expect(json.rows.map((r: { id: string }) => r.id)).toContain("matcher.path-glob");
    const md = readFileSync(join(out, "results.md"), "utf8");
    expect(md).toContain("**Smoke run**");
    expect(md).toContain("| matcher: path glob");
    expect(run.stdout).toBe(md);
    expect(md).toContain("](results.svg)");
    expect(readFileSync(join(out, "results.svg"), "utf8")).toContain('data-id="matcher.path-glob"');
  });

  it("leaves the committed results and chart alone in a smoke run", () => {
    const committed = ["results.md", "results.json", "results.svg"].map((f) => join(benchRoot, f));
    const before = committed.map((f) => (existsSync(f) ? statSync(f).mtimeMs : -1));
    const run = bench("--smoke", "--only", "matchers");
    expect(run.status, run.stderr).toBe(0);
    expect(committed.map((f) => (existsSync(f) ? statSync(f).mtimeMs : -1))).toEqual(before);
    expect(run.stderr).toContain(join(benchRoot, ".tmp", "results.md"));
  });
});
