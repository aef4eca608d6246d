import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let io: MemoryIo;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-runcli-"));
  mkdirSync(join(root, "home"));
  io = memoryIo({
    cwd: root,
    home: join(root, "home"),
    env: {},
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("runCli (in-process)", () => {
  it("prints help and exits 0", async () => {
    expect(await runCli(["--help"], io)).toBe(0);
    expect(io.out).toContain("Usage: a3s-hooks [options] [command]");
    expect(io.out).toMatch(/test \[options\] <event>/);
    expect(await runCli(["test", "--help"], io)).toBe(0);
    expect(io.out).toContain("--input <file>");
  });

  it("refuses a missing command argument", async () => {
    expect(await runCli(["test"], io)).toBe(1);
    expect(io.err).toContain("a3s-hooks: error: missing required argument 'event'");
  });

  it("trusts and revokes", async () => {
    mkdirSync(join(root, ".claude"));
    writeFileSync(
      join(root, ".claude/settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    expect(await runCli(["trust", "--json"], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({
      trusted: true,
      hooks: [expect.stringContaining("Stop [*] true")],
    });
    io.out = "";
    expect(await runCli(["trust", "--revoke"], io)).toBe(0);
    expect(io.out).toMatch(/^No longer trusted: /);
    io.out = "";
    expect(await runCli(["list", "--json"], io)).toBe(0);
    expect(JSON.parse(io.out).skipped[0].reason).toBe("untrusted");
  });

  it("says there is nothing to trust in a project without settings", async () => {
    expect(await runCli(["trust"], io)).toBe(0);
    expect(io.out).toMatch(/^No hook settings in .*; nothing to trust\.\n$/);
  });

  it("reads --input from stdin, and refuses huge or broken input", async () => {
    io.stdin = (async function* () {
      yield '{"prompt": "hi"}';
    })();
    expect(await runCli(["test", "UserPromptSubmit", "--input", "-", "--json"], io)).toBe(0);
    expect(JSON.parse(io.out).event.prompt).toBe("hi");
    io.stdin = (async function* () {
      for (let i = 0; i < 17; i++) yield Buffer.alloc(1024 * 1024, 32);
    })();
    expect(await runCli(["test", "Stop", "--input", "-"], io)).toBe(1);
    expect(io.err).toContain("stdin is larger than 16777216 bytes");
    io.err = "";
    expect(await runCli(["test", "Stop", "--input", "nope.json"], io)).toBe(1);
    expect(io.err).toBe("a3s-hooks: --input: cannot read nope.json: ENOENT\n");
    writeFileSync(join(root, "list.json"), "[1]");
    io.err = "";
    expect(await runCli(["test", "Stop", "--input", "list.json"], io)).toBe(1);
    expect(io.err).toBe("a3s-hooks: --input list.json: expected a JSON object, got [1]\n");
  });

  it("refuses an --input file over 16 MiB counted in bytes, and stops reading /dev/zero", async () => {
    // 2-byte characters: fewer than 16 MiB characters, more than 16 MiB bytes.
    writeFileSync(join(root, "wide.json"), Buffer.alloc(16 * 1024 * 1024 + 2, "é"));
    expect(await runCli(["test", "Stop", "--input", "wide.json"], io)).toBe(1);
    expect(io.err).toBe("a3s-hooks: --input: wide.json is larger than 16777216 bytes\n");
    io.err = "";
    expect(await runCli(["test", "Stop", "--input", "/dev/zero"], io)).toBe(1);
    expect(io.err).toBe("a3s-hooks: --input: /dev/zero is larger than 16777216 bytes\n");
    io.err = "";
    mkdirSync(join(root, "dir.json"));
    expect(await runCli(["test", "Stop", "--input", "dir.json"], io)).toBe(1);
    expect(io.err).toBe("a3s-hooks: --input: cannot read dir.json: EISDIR\n");
  });
});
