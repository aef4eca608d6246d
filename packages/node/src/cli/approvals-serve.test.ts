import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";
import { preparedEmbeddedStore } from "../../../../test-support/embedded-store.ts";
import { programArgs } from "../../../../test-support/program-bundles.ts";

// The real CLI from source, bundled once per run (test/programs.ts), in a real process, as
// approvals-command.test.ts does. A store it serves starts as a copy of one opened once: the
// store's first open (initdb, migrations) is approval-store.test.ts's.
const packageDir = resolve(import.meta.dirname, "../..");
const storeDir = mkdtempSync(join(tmpdir(), "a3s-approvals-serve-"));
const SLOW = 300_000;
const bin = () => programArgs("a3s-hooks");

afterAll(() => rmSync(storeDir, { recursive: true, force: true }));

it(
  "serves the inbox until SIGTERM: prints the URL with the token in its fragment, answers the list, exits 0",
  async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.A3S_TOKEN;
    const child = spawn(
      process.execPath,
      [
        ...bin(),
        "approvals",
        "serve",
        "--store",
        await preparedEmbeddedStore(join(storeDir, "store")),
      ],
      { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    let stderr = "";
    const line = await new Promise<string>((done, fail) => {
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        stderr += s;
        const m = /^inbox: .*$/m.exec(stderr);
        if (m) done(m[0]);
      });
      child.on("close", (code) => fail(new Error(`exited ${code} before the URL: ${stderr}`)));
    });
    expect(line).toMatch(/agents cannot park while this inbox holds it/);
    const m = /^inbox: (http:\/\/127\.0\.0\.1:\d+\/)#token=([A-Za-z0-9_-]+)/.exec(line);
    expect(m).not.toBeNull();
    const [, url, token] = m as RegExpExecArray;

    const refused = await fetch(new URL("/api/approvals", url));
    expect(refused.status).toBe(401);
    const listed = await fetch(new URL("/api/approvals", url), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ version: 1, approvals: [] });

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  },
  SLOW,
);

it(
  "serves with --deciders FILE: no shared token, each person's token proves their name",
  async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.A3S_TOKEN;
    const file = join(storeDir, "deciders.json");
    const alice = "alice-serve-token-0123456789";
    writeFileSync(file, JSON.stringify([{ name: "alice", token: alice }]));
    chmodSync(file, 0o644);
    const child = spawn(
      process.execPath,
      [
        ...bin(),
        "approvals",
        "serve",
        "--store",
        await preparedEmbeddedStore(join(storeDir, "store2")),
        "--deciders",
        file,
      ],
      { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    let stderr = "";
    const line = await new Promise<string>((done, fail) => {
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        stderr += s;
        const m = /^inbox: .*$/m.exec(stderr);
        if (m) done(m[0]);
      });
      child.on("close", (code) => fail(new Error(`exited ${code} before the URL: ${stderr}`)));
    });
    // Other users could read the tokens: said so. No token of anyone's is printed.
    expect(stderr).toContain(`warning: ${file} holds tokens and other users can read it`);
    expect(stderr).not.toContain(alice);
    expect(line).not.toMatch(/#token=[\w-]/);
    expect(line).toContain("#token=<their token>");
    expect(line).toContain(`1 decider(s) from ${file}`);
    const url = /^inbox: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1] as string;
    const me = await fetch(new URL("/api/me", url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(await me.json()).toEqual({ name: "alice" });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  },
  SLOW,
);

it(
  "refuses a deciders file with a bad entry, naming the field",
  async () => {
    const file = join(storeDir, "bad-deciders.json");
    writeFileSync(file, JSON.stringify([{ name: "bob", token: "short" }]), { mode: 0o600 });
    const child = spawn(
      process.execPath,
      [...bin(), "approvals", "serve", "--store", join(storeDir, "store3"), "--deciders", file],
      { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).toBe(1);
    expect(stderr).toContain("deciders[0].token: at least 16 characters");
    expect(stderr).not.toContain("short");
  },
  SLOW,
);
