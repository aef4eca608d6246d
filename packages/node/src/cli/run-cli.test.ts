import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
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

  it("prints help on stdout and exits 0 when run with no arguments", async () => {
    expect(await runCli([], io)).toBe(0);
    expect(io.out).toContain("Usage: a3s-hooks [options] [command]");
    expect(io.out).toContain("Examples:");
    expect(io.err).toBe("");
  });

  it("prints its version with --version and -V", async () => {
    expect(await runCli(["--version"], io)).toBe(0);
    expect(io.out).toBe(`${packageJson.version}\n`);
    io.out = "";
    expect(await runCli(["-V"], io)).toBe(0);
    expect(io.out).toBe(`${packageJson.version}\n`);
  });

  it("shows examples in --help", async () => {
    expect(await runCli(["--help"], io)).toBe(0);
    expect(io.out).toContain(
      `$ a3s-hooks test PreToolUse --tool Bash --args '{"command":"rm -rf /"}'`,
    );
  });

  it("refuses --args without --tool rather than sending them to Bash", async () => {
    expect(await runCli(["test", "PreToolUse", "--args", '{"file_path":"a.txt"}'], io)).toBe(1);
    expect(io.err).toBe(
      "a3s-hooks: --args needs --tool: the name of the tool the arguments are for\n" +
        `hint: for example: a3s-hooks test PreToolUse --tool Bash --args '{"command":"ls"}'\n`,
    );
    expect(io.out).toBe("");
  });

  it("takes --args without --tool when the --input names the tool", async () => {
    writeFileSync(join(root, "event.json"), JSON.stringify({ tool_name: "Write" }));
    const args = ["test", "PreToolUse", "--input", "event.json", "--args", '{"file_path":"a"}'];
    expect(await runCli([...args, "--json"], io)).toBe(0);
    expect(JSON.parse(io.out).event).toMatchObject({ tool: "Write", args: { file_path: "a" } });
  });

  it("colours block red and continue green on a terminal, and never when NO_COLOR is set", async () => {
    const settings = join(root, "hooks.json");
    const group = (command: string) => [{ hooks: [{ type: "command", command }] }];
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { Stop: group("echo no >&2; exit 2"), SessionEnd: group("true") } }),
    );
    const run = async (event: string, env: Record<string, string>, isTTY: boolean) => {
      const tty = memoryIo({ cwd: root, home: join(root, "home"), env });
      tty.stdout = { write: (s: string) => (tty.out += s), isTTY };
      await runCli(["test", event, "--settings", settings, "--no-defaults"], tty);
      return tty.out;
    };
    const red = "\u001b[31mblock\u001b[39m";
    const green = "\u001b[32mcontinue\u001b[39m";
    const blocked = await run("Stop", {}, true);
    expect(blocked).toContain(`Result: ${red}: no`);
    expect(blocked).toContain(`  ${red}, exit 2,`);
    expect(await run("SessionEnd", {}, true)).toContain(`Result: ${green}\n`);
    for (const plain of [
      await run("Stop", { NO_COLOR: "1" }, true),
      await run("Stop", {}, false),
    ]) {
      expect(plain).toContain("Result: block: no");
      expect(plain).not.toContain("\u001b[");
    }
    // no-color.org: an empty NO_COLOR does not turn colour off.
    expect(await run("Stop", { NO_COLOR: "" }, true)).toContain(red);
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
