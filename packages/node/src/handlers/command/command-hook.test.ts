import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  createEvent,
  HookEngine,
  HookError,
  type HookRegistration,
  runTool,
} from "@a3s-lab/hooks-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectCachedFetch } from "../../../../../test-support/cached-fetch.ts";
import { isAlive } from "../../../../../test-support/process-alive.ts";
import { programArgs } from "../../../../../test-support/program-bundles.ts";
import type { CommandRunReport } from "./command-hook.js";
import {
  commandHookRegistration,
  createCommandExecutor,
  createCommandHook,
} from "./create-command-hook.js";

/** How every template refusal ends: the ways to pass a value that no shell reads. */
const ALTERNATIVES =
  "; pass the value another way: the exec form (`command` with `args`, each value one argument, after a literal `--`), the event's JSON on the hook's stdin, or an environment variable the hook reads";

const fixtures = resolve(import.meta.dirname, "../../../test/fixtures/hooks");
const fixture = (name: string) => join(fixtures, name);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "a3s-cmd-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bash = (command: string) =>
  createEvent("PreToolUse", {
    sessionId: "sess-1",
    tool: "Bash",
    args: { command },
    toolUseId: "toolu_1",
  });

function engineWith(...registrations: HookRegistration<"PreToolUse">[]): HookEngine {
  const engine = new HookEngine();
  for (const r of registrations) engine.register(r);
  return engine;
}

describe("stdin, environment and working directory", () => {
  it("give the hook Claude Code's fields, the hooks-system design's event name and the event itself", async () => {
    const hook = createCommandExecutor(
      { args: [fixture("capture.sh"), dir], env: { EXTRA: "yes" }, cwd: "sub" },
      { projectDir: dir, env: { PATH: process.env.PATH } },
    );
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "sub"));
    const report = await hook.run(bash("ls -la"));
    expect(report.error).toBeUndefined();
    const stdin = JSON.parse(readFileSync(join(dir, "stdin.json"), "utf8"));
    expect(stdin).toMatchObject({
      hook_event_name: "PreToolUse",
      event: "pre_tool_use",
      session_id: "sess-1",
      cwd: join(dir, "sub"),
      tool_name: "Bash",
      tool_input: { command: "ls -la" },
      tool_use_id: "toolu_1",
      eventType: "PreToolUse",
      sessionId: "sess-1",
      tool: "Bash",
      args: { command: "ls -la" },
    });
    const env = readFileSync(join(dir, "env.txt"), "utf8");
    expect(env).toContain(`A3S_PROJECT_DIR=${dir}\n`);
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${dir}\n`);
    expect(env).toContain("A3S_SESSION_ID=sess-1\n");
    expect(env).toContain("A3S_HOOK_EVENT=PreToolUse\n");
    expect(env).toContain("EXTRA=yes\n");
    expect(env).not.toContain("HOME=");
    expect(readFileSync(join(dir, "pwd.txt"), "utf8").trim()).toBe(join(dir, "sub"));
  });

  it("leave the host's secrets out of a hook's environment unless allowedSecrets names them", async () => {
    const secrets = {
      A3S_TOKEN: "t0ken",
      A3S_HOOKS_MODEL_API_KEY: "sk-hooks",
      OPENAI_API_KEY: "sk-openai",
      OPENAI_ADMIN_KEY: "sk-admin",
    };
    const envOf = async (options: { allowedSecrets?: string[] }, shell: string) => {
      const out = join(dir, `env-${shell}.txt`);
      const hook = createCommandExecutor(
        {
          command: `env > ${JSON.stringify(out)}`,
          ...(shell === "bash" ? { shell: "bash" as const } : {}),
        },
        { projectDir: dir, env: { PATH: process.env.PATH, ...secrets }, ...options },
      );
      expect((await hook.run(bash("ls"))).error).toBeUndefined();
      return readFileSync(out, "utf8");
    };
    for (const shell of ["sh", "bash"]) {
      const env = await envOf({}, shell);
      for (const value of Object.values(secrets)) expect(env).not.toContain(value);
      expect(env).toMatch(/^PATH=/m);
    }
    const allowed = await envOf({ allowedSecrets: ["OPENAI_API_KEY"] }, "sh");
    expect(allowed).toContain("OPENAI_API_KEY=sk-openai\n");
    expect(allowed).not.toContain("t0ken");
  });

  it("still start, and block, when the session id is too long for an environment variable", async () => {
    const engine = engineWith(
      commandHookRegistration({ event: "PreToolUse", command: "echo no >&2; exit 2" }),
    );
    const event = createEvent("PreToolUse", {
      sessionId: "s".repeat(200_000),
      tool: "Bash",
      args: { command: "ls" },
    });
    expect(await engine.fire(event)).toMatchObject({ action: "block", reason: "no" });
  });

  it("works with a script that closes stdin without reading a 2 MB event", async () => {
    const handler = createCommandHook({ args: [fixture("ignore-stdin.sh")] });
    const response = await handler(bash("x".repeat(2_000_000)), undefined as never);
    expect(response).toEqual({
      action: "continue",
      permission: "allow",
      permissionReason: "stdin ignored",
    });
  });
});

describe("exit codes and output, through the engine", () => {
  it("blocks with the stderr of a Claude Code validator (python, exit 2)", async () => {
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        matcher: "Bash",
        command: fixture("claude-validator.py"),
      }),
    );
    const blocked = await engine.fire(bash("sudo rm -rf / --no-preserve-root"));
    expect(blocked.action).toBe("block");
    expect(blocked.reason).toBe("Blocked: recursive delete of the root directory");
    const allowed = await engine.fire(bash("ls"));
    expect(allowed.action).toBe("continue");
    expect(allowed.outcomes[0]?.status).toBe("ok");
  });

  it("rewrites the input through updatedInput (python) and modified_args (bash)", async () => {
    const engine = new HookEngine({ mode: "sequential" });
    engine.register(
      commandHookRegistration({ event: "PreToolUse", command: fixture("updated-input.py") }),
    );
    engine.register(
      commandHookRegistration({ event: "PreToolUse", args: [fixture("modified-args.sh")] }),
    );
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.permission).toBe("allow");
    expect(result.event.args).toEqual({ command: "ls --color=never", timeout: 30000 });
  });

  it("answers in place of the tool through hookSpecificOutput.a3sRespond: the tool does not run", async () => {
    const answer = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        a3sRespond: { output: "<h1>cached</h1>" },
      },
    });
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        matcher: "WebFetch",
        command: `if grep -q '"url":"https://example.com"'; then printf '%s' '${answer}'; fi`,
      }),
    );
    await expectCachedFetch((url, tool) =>
      runTool(engine, { sessionId: "s", tool: "WebFetch", args: { url } }, tool),
    );
  });

  it("fails a hook whose a3sRespond is bad, naming the field, and the tool runs", async () => {
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command: `printf '%s' '{"hookSpecificOutput":{"a3sRespond":{"output":7}}}'`,
      }),
    );
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.outcomes[0]?.status).not.toBe("ok");
    expect(result.outcomes[0]?.error?.message).toContain("hookSpecificOutput.a3sRespond.output");
  });

  it("turns plain stdout into context for UserPromptSubmit only", async () => {
    const handler = createCommandHook({ command: fixture("add-context.sh") });
    const prompt = createEvent("UserPromptSubmit", { sessionId: "s", prompt: "hello" });
    expect(await handler(prompt, undefined as never)).toEqual({
      action: "continue",
      additionalContext: "Current branch: main\nPrompt length: 5",
    });
    const plain = createCommandHook({ command: "echo just chatter" });
    expect(await plain(bash("ls"), undefined as never)).toEqual({ action: "continue" });
  });

  it("lets no JSON undo an exit-2 block", async () => {
    const handler = createCommandHook({
      command: `echo '{"decision":"approve","continue":true}'; echo '  no way  ' >&2; exit 2`,
    });
    expect(await handler(bash("ls"), undefined as never)).toEqual({
      action: "block",
      reason: "no way",
    });
  });

  it("reads the hooks-system design's continue_execution:false as a block, Claude Code's continue:false as the end of the turn", async () => {
    const json = { continue_execution: false, stop_reason: "stop now" };
    const handler = createCommandHook({ command: `echo '${JSON.stringify(json)}'` });
    expect(await handler(bash("ls"), undefined as never)).toMatchObject({
      action: "block",
      reason: "stop now",
    });
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command: `echo '{"continue": false, "stopReason": "stop now", "decision": "approve"}'`,
      }),
    );
    const result = await engine.fire(bash("ls"));
    expect(result).toMatchObject({ action: "block", stopTurn: { reason: "stop now" } });
  });

  it("reports a crash (python) with its first stderr line, and continues", async () => {
    const reports: CommandRunReport[] = [];
    const engine = engineWith(
      commandHookRegistration(
        { event: "PreToolUse", command: fixture("crash.py"), name: "crashy" },
        { onRun: (r) => reports.push(r) },
      ),
    );
    const failures: string[] = [];
    engine.on("failed", (r) => failures.push(r.message));
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    expect(result.outcomes[0]).toMatchObject({ status: "failed", name: "crashy" });
    expect(failures).toEqual(["exit code 1: fatal: the hook crashed"]);
    expect(reports[0]?.stderr).toContain("RuntimeError: boom");
  });

  it("blocks on failure when the hook's failBehavior is block", async () => {
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command: "exit 3",
        failBehavior: "block",
        name: "strict",
      }),
    );
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("block");
    expect(result.reason).toBe("hook strict failed: exit code 3");
  });

  it("treats garbage JSON on stdout as a failure of the hook, not a crash", async () => {
    const report = await createCommandExecutor({ command: fixture("garbage.sh") }).run(bash("ls"));
    expect(HookError.is(report.error, "INVALID_OUTPUT")).toBe(true);
    expect(report.error?.message).toMatch(/not valid JSON.*\{this is not json/);
  });

  it("reports exit 127 for a missing command, and ENOENT / EACCES in the exec form", async () => {
    const missing = await createCommandExecutor({ command: "no-such-command-a3s" }).run(bash("x"));
    expect(missing.exitCode).toBe(127);
    expect(missing.error?.message).toMatch(
      /^exit code 127 \(command not found\): .*no-such-command-a3s.*not found/,
    );
    const noFile = await createCommandExecutor({ args: [join(dir, "nope.sh")] }).run(bash("x"));
    expect(noFile.error?.message).toBe(
      "could not start the command: ENOENT (no such file or directory)",
    );
    const script = join(dir, "not-executable.sh");
    writeFileSync(script, "#!/bin/sh\nexit 0\n");
    chmodSync(script, 0o644);
    const notExec = await createCommandExecutor({ args: [script] }).run(bash("x"));
    expect(notExec.error?.message).toMatch(/EACCES/);
  });

  it("caps 50 MB of output at 1 MiB per stream, reading the rest so the child finishes", async () => {
    const report = await createCommandExecutor({ args: [fixture("flood.py")] }).run(bash("x"));
    expect(report.exitCode).toBe(0);
    expect(report.error).toBeUndefined();
    expect(report.stdout.length).toBe(1024 * 1024);
    expect(report.stderr.length).toBe(1024 * 1024);
    expect(report.stdoutBytes).toBe(50 * 1024 * 1024);
    expect(report.truncated).toEqual({ stdout: true, stderr: true });
    expect(report.notes).toContain(`stdout cut to 1048576 of ${50 * 1024 * 1024} bytes`);
  });

  it("refuses JSON that was cut by the cap on an event that cannot block", async () => {
    const report = await createCommandExecutor(
      { command: `printf '{"reason":"%s"}' "$(head -c 3000 /dev/zero | tr '\\0' a)"` },
      { maxOutputBytes: 1000 },
    ).run(createEvent("Notification", { sessionId: "s", message: "hi", notificationType: "info" }));
    expect(report.error?.message).toMatch(/longer than the 1000 byte cap/);
  });

  it.each([
    ["1 KB", 1000],
    ["1.1 MB", 1_100_000],
  ])("keeps the block of a hook that quotes a %s input in its answer", async (_, size) => {
    const engine = engineWith(
      commandHookRegistration({ event: "PreToolUse", command: fixture("block-echo.py") }),
    );
    const result = await engine.fire(bash("x".repeat(size)));
    expect(result.action).toBe("block");
    expect(result.reason).toMatch(
      size < 1024 * 1024
        ? /^refused: \{/
        : /^hook output exceeded the 1 MiB cap \(\d+ bytes\); treated as a block$/,
    );
  });

  it("blocks on exit 2 whatever the size of stdout and stderr", async () => {
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command:
          "head -c 2000000 /dev/zero | tr '\\0' a; head -c 2000000 /dev/zero | tr '\\0' b >&2; exit 2",
      }),
    );
    const result = await engine.fire(bash("x"));
    expect(result.action).toBe("block");
    expect(result.reason).toMatch(/^b{8192}… \(\d+ more characters\)$/);
  });
});

describe("the default shell (Claude Code runs command hooks under bash)", () => {
  // Claude Code's hooks reference: a command hook's `shell` field defaults to bash.
  it.each([
    ["[[ … ]]", '[[ "$(cat)" == *rm* ]] && { echo "no rm" >&2; exit 2; }; exit 0'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's array syntax, literally
    ["an array", 'a=(x no-rm); [ "${a[1]}" = no-rm ] && { echo "no rm" >&2; exit 2; }; exit 0'],
    ["$'…'", "[ $'no\\x2drm' = no-rm ] && { echo \"no rm\" >&2; exit 2; }; exit 0"],
  ])(
    "runs an inline command using %s under bash when the hook names no shell",
    async (_, command) => {
      const engine = engineWith(commandHookRegistration({ event: "PreToolUse", command }));
      const result = await engine.fire(bash("rm -rf /"));
      expect(result.action).toBe("block");
      expect(result.reason).toBe("no rm");
    },
  );

  it("says which hook failed and that bash is missing when bash is not on PATH", async () => {
    const hook = createCommandExecutor(
      { command: "exit 0", name: "lint" },
      { projectDir: dir, env: { PATH: dir } },
    );
    const report = await hook.run(bash("ls"));
    expect(report.error?.code).toBe("HANDLER_FAILED");
    expect(report.error?.message).toBe(
      'hook "lint": the shell bash was not found on PATH; command hooks run under bash unless their definition or the shell option names another shell',
    );
  });

  it.each([
    ["with SHLVL=0", { SHLVL: "0" }, { command: "printf ran" }],
    ["with no SHLVL", {}, { command: "printf ran" }],
    ["in the exec form naming bash", { SHLVL: "0" }, { args: ["bash", "-c", "printf ran"] }],
  ] as const)(
    "never sources the user's ~/.bashrc, %s (a host started by CI or a service)",
    async (_, shlvl, definition) => {
      // bash runs ~/.bashrc for `bash -c` when its stdin is a socket (the rshd rule) and it is a
      // top-level shell: Node's stdin pipes are socketpairs, and a host started outside a terminal
      // has no SHLVL. A slow or chatty rc file would then run before every hook: here it would
      // leave a mark and print on stdout, where the hook's answer is read.
      writeFileSync(join(dir, ".bashrc"), `touch "${dir}/rc-ran"\necho from-bashrc\n`);
      const hook = createCommandExecutor(definition, {
        projectDir: dir,
        env: { PATH: process.env.PATH, HOME: dir, ...shlvl },
      });
      const report = await hook.run(bash("ls"));
      expect(report.error).toBeUndefined();
      expect(report.stdout).toBe("ran");
      expect(existsSync(join(dir, "rc-ran"))).toBe(false);
    },
  );

  it("still runs under the shell option when one is given (here dash, where [[ is not a keyword)", async () => {
    const hook = createCommandExecutor(
      { command: "[[ 1 == 1 ]] 2>/dev/null && echo bash || echo posix" },
      { shell: "/bin/dash" },
    );
    const report = await hook.run(bash("ls"));
    expect(report.stdout.trim()).toBe("posix");
  });
});

describe("a hook that cannot be started", () => {
  it.each([
    ["continue", "continue"],
    ["block", "block"],
  ] as const)(
    "follows failBehavior %s when its shell does not exist, and says why",
    async (failBehavior, action) => {
      const engine = engineWith(
        commandHookRegistration(
          { event: "PreToolUse", command: "exit 0", name: "guard", failBehavior },
          { shell: join(dir, "no-such-directory", "sh") },
        ),
      );
      const failures: string[] = [];
      engine.on("failed", (r) => failures.push(r.message));
      const result = await engine.fire(bash("ls"));
      expect(result.action).toBe(action);
      const why = `hook "guard": the shell ${join(dir, "no-such-directory", "sh")} was not found; command hooks run under bash unless their definition or the shell option names another shell`;
      expect(failures).toEqual([why]);
      if (action === "block") expect(result.reason).toBe(`hook guard failed: ${why}`);
    },
  );

  it.each([
    ["continue", "continue"],
    ["block", "block"],
  ] as const)(
    "follows failBehavior %s when the process is out of file descriptors, and says why",
    async (failBehavior, action) => {
      // The program, bundled once per run (test/programs.ts).
      const node = [process.execPath, ...programArgs("fire-without-descriptors")];
      const stdout = await new Promise<string>((resolveRun, reject) =>
        execFile(
          "sh",
          ["-c", 'ulimit -n 256 && exec "$@"', "sh", ...node, failBehavior],
          { cwd: resolve(import.meta.dirname, "../../.."), timeout: 60_000 },
          (error, out) => (error ? reject(error) : resolveRun(out)),
        ),
      );
      const seen = JSON.parse(stdout);
      const why =
        "could not start the command: EMFILE (this process has run out of file descriptors)";
      expect(seen).toEqual({
        action,
        ...(action === "block" ? { reason: `hook guard failed: ${why}` } : {}),
        statuses: ["failed"],
        failures: [why],
      });
    },
  );
});

describe("timeouts and cancellation", () => {
  it("kill the whole process group, children included, and contribute the fail behaviour", async () => {
    const pidFile = join(dir, "pid");
    let report: CommandRunReport | undefined;
    const done = new Promise<void>((resolveDone) => {
      const engine = engineWith(
        commandHookRegistration(
          {
            event: "PreToolUse",
            args: [fixture("sleeper.sh"), pidFile],
            timeout: 1,
            failBehavior: "block",
            name: "sleepy",
          },
          {
            killGraceMs: 200,
            onRun: (r) => {
              report = r;
              resolveDone();
            },
          },
        ),
      );
      void engine.fire(bash("ls")).then((result) => {
        expect(result.action).toBe("block");
        expect(result.reason).toBe("hook sleepy timed out: no answer within 1000 ms");
        expect(result.outcomes[0]?.status).toBe("timeout");
      });
    });
    await done;
    expect(report?.timedOut).toBe(true);
    // The report comes after the pipes closed, i.e. after the background sleep died too.
    await expect
      .poll(() => isAlive(Number(readFileSync(pidFile, "utf8"))), { timeout: 5000 })
      .toBe(false);
  });

  it("time out on their own when used outside an engine", async () => {
    const pidFile = join(dir, "pid");
    const report = await createCommandExecutor(
      { args: [fixture("sleeper.sh"), pidFile], timeout: 1 },
      { killGraceMs: 100 },
    ).run(bash("ls"));
    expect(report.timedOut).toBe(true);
    expect(HookError.is(report.error, "TIMEOUT")).toBe(true);
    expect(report.error?.message).toBe("no answer within 1 s; the process group was killed");
    await expect
      .poll(() => isAlive(Number(readFileSync(pidFile, "utf8"))), { timeout: 5000 })
      .toBe(false);
  });

  it("stop when the firing is aborted", async () => {
    const controller = new AbortController();
    const pidFile = join(dir, "pid");
    const hook = createCommandExecutor({ args: [fixture("sleeper.sh"), pidFile] });
    // Abort once the script has started its children (watching before it starts: no race).
    const started = new Promise<void>((resolveWatch) => {
      const watcher = watch(dir, () => {
        if (existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n")) {
          watcher.close();
          resolveWatch();
        }
      });
    });
    const running = hook.run(bash("ls"), controller.signal);
    await started;
    controller.abort();
    const report = await running;
    expect(report.aborted).toBe(true);
    expect(HookError.is(report.error, "ABORTED")).toBe(true);
    await expect
      .poll(() => isAlive(Number(readFileSync(pidFile, "utf8"))), { timeout: 5000 })
      .toBe(false);
  });

  it("do not wait for a background child that keeps stdout open after the hook exited", async () => {
    const pidFile = join(dir, "bg");
    const report = await createCommandExecutor(
      { command: `(sleep 30) & echo $! > '${pidFile}'; echo '{"decision":"approve"}'` },
      { drainTimeoutMs: 50 },
    ).run(bash("ls"));
    expect(report.response).toEqual({ action: "continue", permission: "allow" });
    const pid = Number(readFileSync(pidFile, "utf8"));
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
  });

  it("take the background children of a hook that exited 0 with them", async () => {
    const pidFile = join(dir, "bg");
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command: `sleep 1000 & echo $! > '${pidFile}'; exit 0`,
      }),
    );
    const result = await engine.fire(bash("ls"));
    expect(result.action).toBe("continue");
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    } finally {
      if (isAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("leave the children of an async hook alone", async () => {
    const pidFile = join(dir, "bg");
    const report = await createCommandExecutor({
      command: `sleep 1000 & echo $! > '${pidFile}'; exit 0`,
      async: true,
    }).run(bash("ls"));
    expect(report.exitCode).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(isAlive(pid)).toBe(true);
    process.kill(pid, "SIGKILL");
  });
});

describe("template variables", () => {
  const canary = () => join(dir, "CANARY");
  const hostile = () => [
    `$(touch ${canary()})`,
    `\`touch ${canary()}\``,
    `'; touch ${canary()}; '`,
    `"; touch ${canary()}; "`,
    `\ntouch ${canary()}\n`,
    `’‘“”; touch ${canary()}`,
  ];

  it("are substituted shell-quoted: hostile values arrive intact and run nothing", async () => {
    for (const value of hostile()) {
      const out = join(dir, "out");
      const report = await createCommandExecutor({
        command: `printf '%s|%s|%s' {{tool_args.command}} '{{tool_args.command}}' "{{tool_args.command}}" > '${out}'`,
      }).run(bash(value));
      expect(report.error).toBeUndefined();
      expect(readFileSync(out, "utf8")).toBe(`${value}|${value}|${value}`);
    }
    expect(existsSync(canary())).toBe(false);
  });

  it("run the CLI-agent hooks specification's examples verbatim without executing what the values hold", async () => {
    const log = join(dir, "audit.log");
    const commands = [
      `echo '[$(date)] BASH: {{tool_args.command}}' >> ${log}`,
      `echo '[$(date)] TOOL: {{tool_name}} - {{result}}' | head -c 200 >> ${log}`,
    ];
    for (const value of hostile()) {
      for (const command of commands) {
        const event = createEvent("PostToolUse", {
          sessionId: "s",
          tool: "bash_execute",
          args: { command: value },
          result: { success: true, output: value, duration: 1 },
        });
        const report = await createCommandExecutor({ command }).run(event);
        expect(report.error).toBeUndefined();
      }
    }
    expect(existsSync(canary())).toBe(false);
    expect(readFileSync(log, "utf8")).toContain(`BASH: '; touch ${canary()}; '`);
  });

  it("drop NUL bytes and cut 1 MB values, and say so", async () => {
    const out = join(dir, "out");
    const value = `a\0b$(touch ${canary()})${"z".repeat(1_000_000)}`;
    const report = await createCommandExecutor({
      command: `printf '%s' '{{tool_args.command}}' > '${out}'`,
    }).run(bash(value));
    expect(report.error).toBeUndefined();
    expect(report.notes).toEqual([
      "{{tool_args.command}}: removed NUL bytes",
      `{{tool_args.command}}: cut to 16384 of ${value.length - 1} characters`,
    ]);
    const written = readFileSync(out, "utf8");
    expect(written.startsWith(`ab$(touch ${canary()})zzz`)).toBe(true);
    expect(written.length).toBe(16_384);
    expect(existsSync(canary())).toBe(false);
  });

  it.each([
    ["quotes", "'".repeat(16_384)],
    ["three-byte characters", "日".repeat(16_384)],
  ])("are cut further to fit the command line when many hostile %s would not", async (_, value) => {
    const engine = engineWith(
      commandHookRegistration({
        event: "PreToolUse",
        command:
          "echo no >&2; : {{tool_args.command}} {{tool_args.command}} {{tool_args.command}}; exit 2",
        name: "wall",
      }),
      commandHookRegistration({
        event: "PreToolUse",
        args: [
          "sh",
          "-c",
          "echo no >&2; exit 2",
          "{{tool_args.command}}{{tool_args.command}}{{tool_args.command}}",
        ],
        name: "exec-wall",
      }),
    );
    const failures: string[] = [];
    engine.on("failed", (r) => failures.push(r.message));
    const result = await engine.fire(bash(value));
    expect(failures).toEqual([]);
    expect(result.action).toBe("block");
    expect(result.outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
  });

  it("are passed as plain arguments in the exec form", async () => {
    const report = await createCommandExecutor({
      args: ["printf", "%s", "{{tool_name}}:{{tool_args.command}}"],
    }).run(bash("$(touch x) 'q'"));
    expect(report.stdout).toBe("Bash:$(touch x) 'q'");
  });

  it("are checked when the hook is made", () => {
    const error = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as HookError;
      }
      throw new Error("expected a throw");
    };
    const unknown = error(() => createCommandHook({ command: "echo {{tool_nme}}" }));
    expect(unknown.code).toBe("TEMPLATE_ERROR");
    expect(unknown.message).toContain("unknown variable {{tool_nme}}; known variables: tool_name");
    const comment = error(() => createCommandHook({ command: "true # {{message}}" }));
    expect(comment.message).toBe(
      `template: {{message}} cannot be quoted safely: a placeholder inside a # comment${ALTERNATIVES}`,
    );
    expect(error(() => createCommandHook({ args: ["{{tool_name}}"] })).message).toBe(
      "args[0]: the program name cannot contain {{variables}}",
    );
  });
});

describe("bad definitions and options", () => {
  const error = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e as HookError;
    }
    throw new Error("expected a throw");
  };

  it.each([
    [{}, "definition"],
    [{ command: "a", args: ["b"] }, "definition"],
    [{ command: "ls", timeout: "ten" }, "definition.timeout"],
    [{ command: "ls", timeout: -1 }, "definition.timeout"],
    [{ command: "ls", timeout: 1e9 }, "definition.timeout"],
    [{ command: "" }, "definition.command"],
    [{ command: "a\0b" }, "definition.command"],
    [{ args: [] }, "definition.args"],
    [{ args: ["ls", 3] }, "definition.args[1]"],
    [{ command: "ls", env: { "A=B": "x" } }, "definition.env"],
    [{ command: "ls", type: "prompt" }, "definition.type"],
    [null, "definition"],
    ["ls", "definition"],
  ])("%j is refused, naming %s", (definition, path) => {
    const e = error(() => createCommandHook(definition as never));
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message.startsWith(path)).toBe(true);
  });

  it("refuses bad options, naming them", () => {
    const e = error(() => createCommandHook({ command: "ls" }, { maxOutputBytes: -1 }));
    expect(e.message).toMatch(/^options\.maxOutputBytes/);
  });

  it.each(["/usr/bin/fish", "csh", "/usr/bin/python3", "/bin/busybox", "/bin/sh -e", ""])(
    "refuses the shell %j, naming the option: templates are quoted for POSIX shells",
    (shell) => {
      const e = error(() => createCommandHook({ command: "ls" }, { shell }));
      expect(e.code).toBe("INVALID_CONFIG");
      expect(e.message).toMatch(/^options\.shell/);
    },
  );

  it.each(["/bin/sh", "sh", "/usr/bin/bash", "dash", "/bin/ksh", "zsh", "mksh", "/bin/ash"])(
    "accepts the shell %j",
    (shell) => {
      expect(() => createCommandHook({ command: "ls" }, { shell })).not.toThrow();
    },
  );

  it.each([
    ["defaultTimeout", "defaultTimeoutMs"],
    ["killGrace", "killGraceMs"],
    ["drainTimeout", "drainTimeoutMs"],
  ])("refuses the old option %s, naming %s, instead of ignoring it", (old, now) => {
    const e = error(() => createCommandHook({ command: "ls" }, { [old]: 100 } as never));
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message).toBe(`options.${old}: renamed to ${now}`);
  });

  it("refuses an event that cannot be written as JSON", async () => {
    const event = bash("ls");
    (event.args as Record<string, unknown>).n = 10n;
    const report = await createCommandExecutor({ command: "true" }).run(event);
    expect(HookError.is(report.error, "INVALID_EVENT")).toBe(true);
  });
});
