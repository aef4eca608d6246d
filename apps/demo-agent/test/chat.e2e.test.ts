import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventLogRecord } from "../src/event-log.js";
import { programArgs, readJsonl, runCli } from "./cli-process.js";
import { checkEventPoints } from "./event-points.js";

let dir: string;
let workdir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "demo-chat-e2e-")));
  workdir = path.join(dir, "project");
  await mkdir(workdir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a3s-demo-agent chat with piped stdin", () => {
  it("answers each line in order, fires each event at its point, and ends the session at EOF", async () => {
    const eventsFile = path.join(dir, "events.jsonl");
    const input = [
      "write notes.md: hello",
      "bash: echo from-bash \\",
      "read notes.md",
      "bash: rm -rf /",
      "task: grep hello",
      "/compact keep names",
      "/nonsense",
      "say: bye",
      "",
    ].join("\n");
    const run = await runCli(
      ["chat", "--workdir", workdir, "--events", eventsFile, "--permission", "allow"],
      {
        input,
        env: { HOME: path.join(dir, "home") },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(await readFile(path.join(workdir, "notes.md"), "utf8")).toBe("hello");
    expect(run.stdout).toContain("↳ from-bash");
    expect(run.stdout).toContain("blocked by a hook (no-dangerous-commands)");
    expect(run.stdout).toContain("unknown command /nonsense");
    expect(run.stdout).toContain("◆ bye");
    expect(run.stdout).not.toContain("you ›");

    const events = readJsonl<EventLogRecord>(eventsFile);
    expect(checkEventPoints(events)).toEqual([]);
    const types = events.map((r) => r.event.eventType);
    expect(types[0]).toBe("SessionStart");
    expect(types.at(-1)).toBe("SessionEnd");
    expect(
      events
        .filter((r) => r.event.eventType === "UserPromptSubmit")
        .map((r) => (r.event as { prompt: string }).prompt),
    ).toEqual([
      "write notes.md: hello",
      "bash: echo from-bash \nread notes.md",
      "bash: rm -rf /",
      "task: grep hello",
      "say: bye",
    ]);
    expect(types).toEqual(
      expect.arrayContaining(["SubagentStart", "SubagentStop", "PreCompact", "PostCompact"]),
    );
    const compact = events.find((r) => r.event.eventType === "PreCompact")?.event;
    expect(compact).toMatchObject({ trigger: "manual", customInstructions: "keep names" });
  }, 60_000);

  it("denies what hooks leave open by default when nobody is at a terminal", async () => {
    const eventsFile = path.join(dir, "events.jsonl");
    const run = await runCli(["chat", "--workdir", workdir, "--events", eventsFile], {
      input: "bash: touch made-it\n/exit\nbash: touch never\n",
      env: { HOME: path.join(dir, "home") },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✖ permission denied by default");
    const events = readJsonl<EventLogRecord>(eventsFile);
    expect(events.find((r) => r.event.eventType === "PermissionDenied")?.event).toMatchObject({
      decidedBy: "default",
    });
    expect(events.at(-1)?.event).toMatchObject({ eventType: "SessionEnd", reason: "exit" });
    expect(events.filter((r) => r.event.eventType === "UserPromptSubmit")).toHaveLength(1);
  }, 60_000);

  it("runs the project's settings hooks only once trusted, and --settings files at once", async () => {
    const marker = path.join(dir, "ran.txt");
    const hook = {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo ran >> '${marker}'` }] }],
      },
    };
    await mkdir(path.join(workdir, ".claude"));
    await writeFile(path.join(workdir, ".claude", "settings.json"), JSON.stringify(hook));
    const first = await runCli(["chat", "--workdir", workdir], {
      input: "say: hi\n",
      env: { HOME: path.join(dir, "home") },
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/does not run: the project's hook settings are not trusted/);
    await expect(readFile(marker, "utf8")).rejects.toThrow();

    const explicit = path.join(dir, "mine.json");
    await writeFile(explicit, JSON.stringify(hook));
    const second = await runCli(["chat", "--workdir", workdir, "--settings", explicit], {
      input: "say: hi\n",
      env: { HOME: path.join(dir, "home") },
    });
    expect(second.code).toBe(0);
    expect(await readFile(marker, "utf8")).toBe("ran\n");
  }, 60_000);

  it("reports a broken settings file with its path and the field, and still runs", async () => {
    const broken = path.join(dir, "broken.json");
    await writeFile(
      broken,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true", timeout: "ten" }] }] },
      }),
    );
    const run = await runCli(["chat", "--workdir", workdir, "--settings", broken], {
      input: "say: still here\n",
      env: { HOME: path.join(dir, "home") },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/broken\.json.*timeout/);
    expect(run.stdout).toContain("◆ still here");
  }, 60_000);

  it("fails cleanly for a working directory that does not exist", async () => {
    const run = await runCli(["chat", "--workdir", path.join(dir, "nope")], { input: "" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: .*nope/);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  }, 30_000);
});

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

describe("a3s-demo-agent chat on a pseudo-terminal", () => {
  it("prompts, asks the person for permission, and runs what they allow", async () => {
    // script(1) gives the CLI a real terminal: stdin and stdout are TTYs, as for a person.
    const command = [process.execPath, ...programArgs("demo", ["chat", "--workdir", workdir])]
      .map(quote)
      .join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: { ...process.env, HOME: path.join(dir, "home"), NO_COLOR: "1" },
    });
    let out = "";
    const count = (text: string) => out.split(text).length - 1;
    // Wait until the output shows `text` at least `times` times: answers must never run ahead
    // of the questions they answer.
    const waitFor = (text: string, times = 1) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (count(text) < times) return;
          child.stdout.off("data", check);
          child.off("close", closed);
          resolve();
        };
        const closed = () => reject(new Error(`closed before ${JSON.stringify(text)}:\n${out}`));
        child.stdout.on("data", check);
        child.once("close", closed);
        check();
      });
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    await waitFor("you › ");
    child.stdin.write("bash: echo hi-from-pty > pty.txt\r");
    await waitFor("[y/N]");
    child.stdin.write("y\r");
    await waitFor("you › ", 2);
    child.stdin.write("bash: touch refused.txt\r");
    await waitFor("[y/N]", 2);
    child.stdin.write("n\r");
    await waitFor("you › ", 3);
    child.stdin.write("/exit\r");
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    expect(out).toContain("✔ permission granted by user: allowed when asked");
    expect(out).toContain("✖ permission denied by user: denied when asked");
    expect(await readFile(path.join(workdir, "pty.txt"), "utf8")).toBe("hi-from-pty\n");
    await expect(readFile(path.join(workdir, "refused.txt"))).rejects.toThrow();
    expect(out).toMatch(/session \w+ ended \(exit\)/);
  }, 60_000);
});
