import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemoryIo, memoryIo } from "../../test/support/memory-io.js";
import { runCli } from "./run-cli.js";

let root: string;
let io: MemoryIo;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "a3s-cc-input-"));
  io = memoryIo({ cwd: root, home: root, env: { PATH: process.env.PATH ?? "" } });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

/** A settings file whose hook for `event` saves its stdin to stdin.json. */
function capturing(event: string): string {
  return file("settings.json", {
    hooks: { [event]: [{ hooks: [{ type: "command", command: `cat > '${root}/stdin.json'` }] }] },
  });
}

const stdin = () => JSON.parse(readFileSync(join(root, "stdin.json"), "utf8"));

// Claude Code's hooks reference: SessionStart's input has `source` and `model` (the model's id,
// a string) besides the common fields.
describe("a3s-hooks test --input with Claude Code's own input", () => {
  it("accepts a real SessionStart input (model is a string) and passes it on as it came", async () => {
    const input = file("in.json", {
      session_id: "abc123",
      transcript_path: "/home/me/.claude/projects/p/abc123.jsonl",
      cwd: "/home/me/p",
      hook_event_name: "SessionStart",
      source: "resume",
      model: "claude-sonnet-4-5-20250929",
      agent_type: "reviewer",
      some_future_field: { nested: [1, 2] },
    });
    const code = await runCli(
      ["test", "SessionStart", "--settings", capturing("SessionStart"), "--input", input],
      io,
    );
    expect(io.err).toBe("");
    expect(code).toBe(0);
    expect(stdin()).toMatchObject({
      hook_event_name: "SessionStart",
      session_id: "abc123",
      source: "resume",
      model: "claude-sonnet-4-5-20250929",
      agent_type: "reviewer",
      some_future_field: { nested: [1, 2] },
      transcript_path: "/home/me/.claude/projects/p/abc123.jsonl",
    });
  });

  it("keeps the fields of newer Claude Code inputs (prompt_id, effort, permission_suggestions)", async () => {
    const suggestions = [
      {
        type: "addRules",
        rules: [{ toolName: "Bash" }],
        behavior: "allow",
        destination: "localSettings",
      },
    ];
    const input = file("in.json", {
      session_id: "abc123",
      transcript_path: "/t.jsonl",
      cwd: "/p",
      permission_mode: "default",
      hook_event_name: "PermissionRequest",
      prompt_id: "prompt-7",
      effort: "high",
      tool_name: "Bash",
      tool_input: { command: "npm test", description: "Run the tests" },
      permission_suggestions: suggestions,
    });
    const code = await runCli(
      ["test", "PermissionRequest", "--settings", capturing("PermissionRequest"), "--input", input],
      io,
    );
    expect(io.err).toBe("");
    expect(code).toBe(0);
    expect(stdin()).toMatchObject({
      prompt_id: "prompt-7",
      effort: "high",
      permission_suggestions: suggestions,
      tool_input: { command: "npm test", description: "Run the tests" },
      permission_mode: "default",
    });
  });

  it("gives PostToolUse hooks Claude Code's own tool_response (Bash stdout, Write filePath)", async () => {
    const input = file("in.json", {
      session_id: "s",
      cwd: "/p",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      tool_response: { stdout: "hi\n", stderr: "", interrupted: false, isImage: false },
      tool_use_id: "toolu_01",
      duration_ms: 12,
    });
    expect(
      await runCli(
        ["test", "PostToolUse", "--settings", capturing("PostToolUse"), "--input", input],
        io,
      ),
    ).toBe(0);
    expect(stdin().tool_response).toEqual({
      stdout: "hi\n",
      stderr: "",
      interrupted: false,
      isImage: false,
    });
    expect(stdin().duration_ms).toBe(12);
  });
});
