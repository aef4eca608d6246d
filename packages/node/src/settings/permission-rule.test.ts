import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { bashSubcommands } from "../shell/bash-subcommands.js";
import { compilePermissionRule, ifAppliesTo } from "./permission-rule.js";

const ctx = { projectDir: "/work/project", home: "/home/me" };
const tool = (name: string, args: Record<string, unknown>) =>
  createEvent("PreToolUse", { sessionId: "s", tool: name, args });
const bash = (command: string) => tool("Bash", { command });
const rule = (text: string) => compilePermissionRule(text, ctx);

describe("compilePermissionRule: Bash", () => {
  it("reads prefix rules with a word boundary, exact rules exactly, and * anywhere", () => {
    const prefix = rule("Bash(git push:*)");
    expect(prefix(bash("git push"))).toBe(true);
    expect(prefix(bash("git push origin main"))).toBe(true);
    expect(prefix(bash("git pushx"))).toBe(false);
    expect(prefix(bash("git status"))).toBe(false);

    const space = rule("Bash(ls *)");
    expect(space(bash("ls -la"))).toBe(true);
    expect(space(bash("ls"))).toBe(true);
    expect(space(bash("lsof"))).toBe(false);
    expect(rule("Bash(ls*)")(bash("lsof"))).toBe(true);

    expect(rule("Bash(npm run build)")(bash("npm run build"))).toBe(true);
    expect(rule("Bash(npm run build)")(bash("npm run build --watch"))).toBe(false);
    expect(rule("Bash(git * main)")(bash("git push origin main"))).toBe(true);
    expect(rule("Bash(git * main)")(bash("git push origin dev"))).toBe(false);
    expect(rule("Bash")(bash("anything"))).toBe(true);
    expect(rule("Bash(git *)")(tool("Read", { file_path: "/x" }))).toBe(false);
  });

  it("is not fooled by compound commands, assignments, runners or substitutions", () => {
    const rm = rule("Bash(rm:*)");
    for (const command of [
      "git push; rm -rf /",
      "git status && rm -rf /",
      "true || rm -rf /",
      "ls | rm -rf /",
      "(cd build && rm -rf *)",
      "{ rm -rf build; }",
      "FOO=1 rm -rf build",
      "echo $(rm -rf /)",
      "echo `rm -rf /`",
      "timeout 5 rm -rf /",
      "sudo -u root rm -rf /",
      "sh -c 'rm -rf /'",
      "/bin/rm -rf /",
      "if true; then rm -rf /; fi",
      "cat <(rm -rf /)",
      "git status\nrm -rf /",
      "rm  -rf   /tmp/x 2>&1 > /dev/null",
    ]) {
      expect(rm(bash(command)), command).toBe(true);
    }
    const push = rule("Bash(git push:*)");
    expect(push(bash("git push; rm -rf /"))).toBe(true);
    expect(push(bash("ls && FOO=bar git push"))).toBe(true);
    // Quoted operators are data, not separators.
    expect(rm(bash("echo 'a; rm -rf /'"))).toBe(false);
    expect(rm(bash("git commit -m 'rm x'"))).toBe(false);
  });

  it("runs the hook (matches) for commands it cannot follow", () => {
    const push = rule("Bash(git push:*)");
    expect(push(bash("echo 'unclosed"))).toBe(true);
    expect(push(bash('git commit -m "$(cat msg)"'))).toBe(true);
    expect(push(bash("cat <<EOF\nx\nEOF"))).toBe(true);
    expect(push(bash("x".repeat(70_000)))).toBe(true);
    expect(bashSubcommands("a 'b")).toBeUndefined();
  });

  it("runs the hook for a command word the shell expands into something else", () => {
    const rm = rule("Bash(rm *)");
    for (const command of [
      "$(echo rm) -rf /tmp/x",
      "`echo rm` -rf x",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, literally
      "rm${IFS}-rf${IFS}/",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, literally
      "rm${x:-} -rf x",
      "$'rm' -rf /",
      "{rm,-rf,/}",
      "r\\\nm -rf x",
      "r*m -rf x",
      "/bin/r? -rf x",
      "x=rm; $x -rf /",
      "'r'm -rf x",
      'FOO=1 "$CMD" -rf x',
      "r$(echo m) -rf x",
      "sudo $(echo rm) -rf x",
      "timeout 5 r* -rf x",
      "sh -c 'r* -rf x'",
      "git status && $(echo rm) -rf x",
    ]) {
      expect(bashSubcommands(command), command).toBeUndefined();
      expect(rm(bash(command)), command).toBe(true);
    }
    // Expansions in arguments and substitutions in argument position are still followed.
    expect(rm(bash("echo $HOME"))).toBe(false);
    expect(rm(bash("echo $(date) `date` *.ts"))).toBe(false);
    expect(rm(bash("echo $(date) $(whoami)"))).toBe(false);
    expect(rm(bash("FOO=$(date); git status"))).toBe(false);
    // Variables set for one program change what it runs (GIT_PAGER, LD_PRELOAD, BASH_ENV).
    expect(rm(bash("FOO=$(date) git status"))).toBe(true);
    expect(rm(bash("echo $(rm -rf /)"))).toBe(true);
  });

  it("splits in time linear in the command", () => {
    const big = "a && ".repeat(10_000);
    expect(bashSubcommands(big)?.length).toBe(1);
  });
});

describe("compilePermissionRule: paths, domains, MCP", () => {
  it("reads Edit and Read globs from the project directory, gitignore-style", () => {
    const src = rule("Edit(src/**)");
    expect(src(tool("Edit", { file_path: "/work/project/src/a/b.ts" }))).toBe(true);
    expect(src(tool("Write", { file_path: "src/new.ts" }))).toBe(true);
    expect(src(tool("Edit", { file_path: "/work/project/lib/a.ts" }))).toBe(false);
    expect(src(tool("Edit", { file_path: "/work/project/lib/../src/a.ts" }))).toBe(true);
    expect(src(tool("Read", { file_path: "/work/project/src/a.ts" }))).toBe(false);

    const ts = rule("Edit(*.ts)");
    expect(ts(tool("Edit", { file_path: "/work/project/deep/dir/x.ts" }))).toBe(true);
    expect(ts(tool("Edit", { file_path: "/elsewhere/x.ts" }))).toBe(false);
    expect(ts(tool("Edit", { file_path: "/work/project/x.js" }))).toBe(false);

    const secrets = rule("Read(./secrets/**)");
    expect(secrets(tool("Read", { file_path: "/work/project/secrets/key" }))).toBe(true);
    expect(secrets(tool("Read", { file_path: "./secrets/../secrets/key" }))).toBe(true);
    expect(secrets(tool("Grep", { path: "secrets" }))).toBe(true);
    expect(secrets(tool("Grep", { path: "src" }))).toBe(false);
    expect(secrets(tool("Grep", { path: "secrets/x" }))).toBe(true);
    expect(secrets(tool("Grep", { pattern: "x" }))).toBe(true);

    // A search from an ancestor directory reaches the files the rule names.
    expect(secrets(tool("Grep", { pattern: "KEY", path: "." }))).toBe(true);
    expect(secrets(tool("Glob", { pattern: "**", path: "/work/project" }))).toBe(true);
    expect(secrets(tool("LS", { path: "/" }))).toBe(true);
    expect(secrets(tool("Glob", { pattern: "**", path: "/work/projectx" }))).toBe(false);
    expect(secrets(tool("Glob", { pattern: "../project/secrets/*", path: "src" }))).toBe(true);
    // A file reader is still tested on the file it reads.
    expect(secrets(tool("Read", { file_path: "/work/project" }))).toBe(false);
    const env = rule("Read(.env)");
    expect(env(tool("Grep", { pattern: "KEY", path: "src/deep" }))).toBe(true);
    expect(env(tool("Read", { file_path: "/work/project/src/a.ts" }))).toBe(false);

    expect(rule("Read(//etc/**)")(tool("Read", { file_path: "/etc/passwd" }))).toBe(true);
    expect(rule("Read(~/.ssh/**)")(tool("Read", { file_path: "/home/me/.ssh/id" }))).toBe(true);
    expect(rule("Edit(/docs/*.md)")(tool("Edit", { file_path: "/work/project/docs/a.md" }))).toBe(
      true,
    );
  });

  it("reads WebFetch domains and MCP tool names", () => {
    const web = rule("WebFetch(domain:example.com)");
    expect(web(tool("WebFetch", { url: "https://example.com/x" }))).toBe(true);
    expect(web(tool("WebFetch", { url: "https://evil.com/example.com" }))).toBe(false);
    expect(
      rule("WebFetch(domain:*.example.com)")(tool("WebFetch", { url: "https://a.example.com" })),
    ).toBe(true);
    // A trailing dot names the same host.
    expect(web(tool("WebFetch", { url: "https://example.com./x" }))).toBe(true);
    expect(web(tool("WebFetch", { url: "https://EXAMPLE.com../x" }))).toBe(true);
    expect(
      rule("WebFetch(domain:*.example.com)")(tool("WebFetch", { url: "https://a.example.com./" })),
    ).toBe(true);
    expect(
      rule("WebFetch(domain:example.com.)")(tool("WebFetch", { url: "https://example.com/" })),
    ).toBe(true);
    expect(web(tool("WebFetch", { url: "http://[::1" }))).toBe(true);

    expect(rule("mcp__github__create_issue")(tool("mcp__github__create_issue", {}))).toBe(true);
    expect(rule("mcp__github")(tool("mcp__github__create_issue", {}))).toBe(true);
    expect(rule("mcp__github")(tool("mcp__githubx__create_issue", {}))).toBe(false);
    expect(rule("mcp__github__*")(tool("mcp__github__list", {}))).toBe(true);
    expect(rule("mcp__github__*")(tool("mcp__gitlab__list", {}))).toBe(false);
  });

  it("refuses malformed rules with an error naming the field", () => {
    for (const bad of [
      "",
      "Bash(",
      "(git)",
      "Bash()",
      "Task(Explore",
      "Task(a)(b)",
      "WebFetch(example.com)",
      "Edit()",
      "Ba sh",
    ]) {
      let error: unknown;
      try {
        compilePermissionRule(bad, ctx, "hooks.PreToolUse[0].hooks[0].if");
      } catch (e) {
        error = e;
      }
      expect(HookError.is(error, "INVALID_CONFIG"), bad).toBe(true);
      expect((error as Error).message).toMatch(/^hooks\.PreToolUse\[0\]\.hooks\[0\]\.if: /);
    }
    expect(() => compilePermissionRule(`Bash(${"a".repeat(5000)})`, ctx)).toThrow(/limit is 4096/);
  });

  it("reads a specifier for any tool: its main argument, or every call of it", () => {
    const explore = rule("Task(Explore)");
    expect(explore(tool("Task", { subagent_type: "Explore", prompt: "x" }))).toBe(true);
    expect(explore(tool("Task", { subagent_type: "Plan", prompt: "x" }))).toBe(false);
    expect(explore(tool("Task", { prompt: "x" }))).toBe(true);
    expect(explore(tool("Agent", { subagent_type: "Explore" }))).toBe(false);
    expect(rule("Agent(Explore)")(tool("Agent", { subagent_type: "Explore" }))).toBe(true);
    expect(rule("Agent(Exp*)")(tool("Agent", { subagent_type: "Explorer" }))).toBe(true);
    const skill = rule("Skill(pdf)");
    expect(skill(tool("Skill", { skill: "pdf" }))).toBe(true);
    expect(skill(tool("Skill", { name: "pdf" }))).toBe(true);
    expect(skill(tool("Skill", { skill: "docx" }))).toBe(false);
    // No obvious main argument: every call of that tool.
    const other = rule("Foo(bar)");
    expect(other(tool("Foo", { anything: 1 }))).toBe(true);
    expect(other(tool("Bar", {}))).toBe(false);
    expect(rule("mcp__github__create_issue(x)")(tool("mcp__github__create_issue", {}))).toBe(true);
  });

  it("applies to tool events only", () => {
    expect(ifAppliesTo("PreToolUse")).toBe(true);
    expect(ifAppliesTo("PermissionRequest")).toBe(true);
    expect(ifAppliesTo("SessionStart")).toBe(false);
    expect(ifAppliesTo("Stop")).toBe(false);
  });
});

describe("compilePermissionRule: paths through symbolic links", () => {
  it("judges the path the tool acts on: links inside the project are followed, unsure ones run the hook", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "a3s-links-")));
    try {
      const project = join(root, "project");
      mkdirSync(join(project, "secrets"), { recursive: true });
      mkdirSync(join(project, "src"));
      mkdirSync(join(root, "outside"));
      writeFileSync(join(project, "secrets/key"), "k");
      writeFileSync(join(project, "src/a.ts"), "");
      symlinkSync("secrets", join(project, "alias"));
      symlinkSync("secrets/key", join(project, "key-link"));
      symlinkSync("src", join(project, "code"));
      symlinkSync("missing", join(project, "dangling"));
      symlinkSync("loop", join(project, "loop"));
      symlinkSync(join(root, "outside"), join(project, "out"));
      // The project named through a link of its own: paths are judged as the rule spells them.
      symlinkSync(project, join(root, "project-link"));
      const at = (projectDir: string, text: string) =>
        compilePermissionRule(text, { projectDir, home: root });
      const read = at(project, "Read(./secrets/**)");
      const edit = at(project, "Edit(./secrets/**)");
      for (const [name, args] of [
        ["Read", { file_path: "alias/key" }],
        ["Read", { file_path: join(project, "key-link") }],
        ["Grep", { pattern: "k", path: "alias" }],
        ["Grep", { pattern: "k", path: "key-link" }],
        ["Glob", { pattern: "*", path: join(project, "alias") }],
        ["Read", { file_path: "dangling" }],
        ["Read", { file_path: "loop/x" }],
        ["Read", { file_path: "out/x" }],
      ] as const) {
        expect(read(tool(name, args)), `${name} ${JSON.stringify(args)}`).toBe(true);
      }
      for (const file_path of ["alias/key", "key-link", "alias/new-file", "dangling"]) {
        expect(edit(tool("Write", { file_path, content: "" })), file_path).toBe(true);
        expect(edit(tool("Edit", { file_path })), file_path).toBe(true);
      }
      // Links that stay clear of the rule are still told apart.
      expect(read(tool("Read", { file_path: "code/a.ts" }))).toBe(false);
      expect(edit(tool("Write", { file_path: "code/new.ts", content: "" }))).toBe(false);
      expect(read(tool("Grep", { pattern: "k", path: "code" }))).toBe(false);
      const viaLink = at(join(root, "project-link"), "Read(./secrets/**)");
      expect(viaLink(tool("Read", { file_path: join(project, "alias/key") }))).toBe(true);
      expect(viaLink(tool("Read", { file_path: join(project, "src/a.ts") }))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
