import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";

describe("parseCliArgs", () => {
  it("defaults to run, loopback and a free port", () => {
    expect(parseCliArgs([], {})).toMatchObject({
      command: "run",
      host: "127.0.0.1",
      port: 0,
      settings: [],
      keep: false,
      ui: false,
      watch: true,
      help: false,
    });
  });

  it("reads every flag, repeatable --settings, and the environment's token and model", () => {
    const args = parseCliArgs(
      [
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "7070",
        "--settings",
        "a.json",
        "--settings",
        "b.json",
        "--workdir",
        "/w",
        "--ui",
        "--audit",
        "a.jsonl",
        "--events",
        "e.jsonl",
        "--permission",
        "allow",
        "--no-color",
        "--no-watch",
      ],
      { A3S_TOKEN: "from-env", A3S_MODEL: "gpt-x" },
    );
    expect(args).toMatchObject({
      command: "serve",
      host: "0.0.0.0",
      port: 7070,
      settings: ["a.json", "b.json"],
      workdir: "/w",
      ui: true,
      audit: "a.jsonl",
      events: "e.jsonl",
      permission: "allow",
      color: false,
      watch: false,
      token: "from-env",
      model: "gpt-x",
    });
    expect(parseCliArgs(["serve", "--token", "flag"], { A3S_TOKEN: "env" }).token).toBe("flag");
    expect(parseCliArgs(["chat"], { A3S_TOKEN: "" }).token).toBeUndefined();
    // A token that begins with "-" is passed in one argument.
    expect(parseCliArgs(["serve", "--token=-Ab_9"], {}).token).toBe("-Ab_9");
  });

  it("resume takes a session id, --store and --wait; run takes prompts", () => {
    const args = parseCliArgs(
      ["resume", "5f0c1a52-0000-4000-8000-000000000000", "--store", "postgres://db/x", "--wait"],
      {},
    );
    expect(args).toMatchObject({
      command: "resume",
      session: "5f0c1a52-0000-4000-8000-000000000000",
      store: "postgres://db/x",
      wait: true,
    });
    expect(parseCliArgs(["run", "--prompt", "bash: ls", "--prompt", "read a"], {}).prompts).toEqual(
      ["bash: ls", "read a"],
    );
    expect(parseCliArgs(["run"], {})).toMatchObject({ prompts: [], wait: false });
    const one = parseCliArgs(
      ["resume", "s1", "--approval", "37922023-0b1c-4d2e-8f00-0123456789ab"],
      {},
    );
    expect(one.approval).toBe("37922023-0b1c-4d2e-8f00-0123456789ab");
    expect(parseCliArgs(["resume", "s1"], {}).approval).toBeUndefined();
  });

  it("refuses unknown commands, flags and bad values, naming them", () => {
    const cases: [string[], RegExp][] = [
      [["dance"], /unknown command "dance"/],
      [["run", "extra"], /unexpected argument "extra"/],
      [["--bogus"], /bogus/],
      [["serve", "--port", "70000"], /--port/],
      [["serve", "--port", "abc"], /--port/],
      [["serve", "--port", "-1"], /--port|port/],
      [["chat", "--permission", "sometimes"], /--permission/],
      [["--audit", ""], /--audit/],
      [["--settings", "a\0b"], /--settings/],
      [["serve", "--host"], /host/],
      [["resume"], /resume: which session\?/],
      [["resume", "bad id!"], /session: "bad id!" is not a session id/],
      [["resume", "s1", "s2"], /unexpected argument "s2"/],
      [["run", "--store", ""], /--store/],
      [["resume", "s1", "--approval", "nope"], /--approval: "nope" is not an approval id/],
      [["run", "--approval", "37922023-0b1c-4d2e-8f00-0123456789ab"], /--approval: only resume/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseCliArgs(argv, {}), argv.join(" ")).toThrow(message);
    }
  });
});
