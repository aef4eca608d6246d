import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { A3sClient } from "@a3s-lab/box";
import { trustProject } from "@a3s-lab/hooks-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LineWaiter, startCli } from "./cli-process.js";

let dir: string;
let home: string;
let server: ChildProcess | undefined;
let client: A3sClient | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "demo-reload-e2e-")));
  home = path.join(dir, "home");
  mkdirSync(home);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  if (server && server.exitCode === null) {
    server.kill("SIGKILL");
    await new Promise((resolve) => server!.once("close", resolve));
  }
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Save the way editors do: a temp file beside it, renamed over it. */
function save(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

const blockForbidden = JSON.stringify({
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            command: `case "$(cat)" in *tok-forbidden*) echo "settings say no" >&2; exit 2;; esac`,
          },
        ],
      },
    ],
  },
});

describe("serve reloads its settings files while it runs", () => {
  it("an edited .claude/settings.json blocks a tool call once trusted; a broken edit keeps it", async () => {
    server = startCli(
      ["serve", "--workdir", dir, "--token", "reload-token", "--permission", "allow"],
      { env: { HOME: home, A3S_TOKEN: undefined } },
    );
    const stdout = new LineWaiter(server.stdout!);
    const stderr = new LineWaiter(server.stderr!);
    const address = (await stdout.next(/^listening on /)).replace("listening on ", "");
    client = new A3sClient({ address, token: "reload-token" });
    const sessionId = await client.createSession();
    const forbidden = () =>
      client!.executeTool(sessionId, "Bash", { command: "echo tok-forbidden" });
    expect(await forbidden()).toMatchObject({ success: true });

    const settings = path.join(dir, ".claude", "settings.json");
    save(settings, blockForbidden);
    expect(await stderr.next(/settings reloaded/)).toMatch(
      /settings reloaded \(\.claude\/settings\.json\): .*not trusted yet/,
    );
    expect(await forbidden()).toMatchObject({ success: true });

    // `a3s-hooks trust` in another process writes the trust store; serve picks it up.
    await trustProject({ cwd: dir, home });
    expect(await stderr.next(/settings reloaded/)).toContain("trusted.json");
    expect(await forbidden()).toMatchObject({
      success: false,
      blocked: true,
      reason: expect.stringContaining("settings say no"),
    });

    save(settings, '{ "hooks": ');
    expect(await stderr.next(/settings not reloaded/)).toMatch(/invalid JSON/);
    expect(await forbidden()).toMatchObject({ success: false, blocked: true });
  }, 60_000);
});
