// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, not JS templates.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, HookError } from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  accepted,
  hostileValue,
  injectionLab,
  templateSource,
} from "../../test/command/template-injection.js";
import { CommandTemplate } from "./command-template.js";

const dir = mkdtempSync(join(tmpdir(), "a3s-template-"));
const canary = join(dir, "CANARY");
afterEach(() => rmSync(canary, { force: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = (command: string) =>
  createEvent("PreToolUse", { sessionId: "s", tool: "Bash", args: { command } });

/**
 * What the settings check decides about `template`, and, when it accepts it, whether running
 * the rendered command with `value` under `shell` created the canary.
 */
function attempt(template: string, value: string, shell: string) {
  let compiled: CommandTemplate;
  try {
    compiled = new CommandTemplate({ command: template });
  } catch (error) {
    return { refused: error };
  }
  const { file, args } = compiled.render(event(value), { cwd: dir, shell, valueLimit: 16_384 });
  spawnSync(file, args, { cwd: dir, stdio: "ignore", timeout: 10_000 });
  return { ran: true, canary: existsSync(canary) };
}

describe("placeholders no quoting can protect are refused when the template is compiled", () => {
  it.each([
    ['echo "x\\{{tool_args.command}}"', "$(touch CANARY)", "sh", "backslash"],
    ["echo x\\{{tool_args.command}}", '\\"; touch CANARY; #', "sh", "backslash"],
    ['echo "${{tool_args.command}}"', "(touch CANARY)", "sh", "$"],
    ["echo ${{tool_args.command}}", "\\'; touch CANARY; #", "bash", "$"],
  ])("%s with %j under %s", (template, value, shell, why) => {
    const outcome = attempt(template, value, shell);
    expect(outcome).not.toHaveProperty("canary", true);
    expect(HookError.is(outcome.refused, "TEMPLATE_ERROR")).toBe(true);
    const message = (outcome.refused as Error).message;
    expect(message).toContain("{{tool_args.command}}");
    expect(message).toContain(why);
  });
});

describe("whatever the load check accepts", () => {
  const lab = injectionLab();
  afterAll(() => lab.dispose());

  it("runs no hostile value through sh or bash (property)", () => {
    fc.assert(
      fc.property(templateSource, hostileValue, (source, value) => {
        const template = accepted(source);
        if (!template) return;
        for (const shell of ["sh", "bash"]) {
          expect({ source, value, shell, ran: lab.run(template, value, shell) }).toEqual({
            source,
            value,
            shell,
            ran: false,
          });
        }
      }),
      { numRuns: 200 },
    );
  });
});
