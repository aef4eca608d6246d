import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  FIXED_CORPUS,
  hostileCommand,
  judgeCorpus,
  type SplitLab,
  splitLab,
  verdict,
} from "../../test/shell/split-judge.js";
import { splitBashCommand } from "./bash-subcommands.js";

/**
 * The harness that decided the splitter's grammar stays ours (docs/shell.md, "A real parser?"):
 * real dash and bash run each command with stand-ins that record what they were started with,
 * and the splitter may be unsure, but never leave out a program that ran.
 */
describe("splitBashCommand judged by what dash and bash run", () => {
  let lab: SplitLab | undefined;
  const theLab = () => {
    lab ??= splitLab();
    return lab;
  };
  afterAll(() => lab?.dispose());

  it("lists every program that ran, or is unsure, on the fixed adversarial corpus", async () => {
    const judged = await judgeCorpus(theLab(), FIXED_CORPUS);
    const missed = [...judged]
      .filter(([command, ran]) => verdict(splitBashCommand(command), ran) === "missed")
      .map(([command]) => command);
    expect(missed).toEqual([]);
  }, 300_000);

  it("reads in full what it can, word for word", async () => {
    const readInFull = [
      "rm x",
      "\\rm x",
      "rm 'a;b' c",
      "rm a\\ b",
      "echo $(rm y)",
      "echo `rm y`",
      "echo a#b; rm y",
      "echo a #; rm y\nrm z",
      "rm x 2>/dev/null y",
      "rm x && rm y || rm z",
      "( rm x ) && (rm y)",
      "if rm x; then :; else rm y; fi",
      "git status; git push",
      "git pu\\sh",
      'rm "a\\"b"',
      'rm "a\\b"',
      "rm 'a\\'",
      'git "pu\\sh"',
      'rm "x\\\\" "y\\\ny"',
    ];
    const judged = await judgeCorpus(theLab(), readInFull);
    for (const [command, ran] of judged) {
      expect(ran.length, `${command} ran a stand-in`).toBeGreaterThan(0);
      expect({ command, verdict: verdict(splitBashCommand(command), ran) }).toEqual({
        command,
        verdict: "right",
      });
    }
  }, 300_000);

  it("does not read quoted or escaped text as a command", async () => {
    for (const command of ["echo 'x; rm y'", "echo x\\; rm y", 'echo "\\$(rm y)"']) {
      expect(await theLab().ran(command, "bash"), command).toEqual([]);
      const split = splitBashCommand(command);
      const texts = [...(split?.texts ?? []), ...(split?.open ?? [])];
      expect(texts.length, command).toBeGreaterThan(0);
      expect(
        texts.filter((t) => t.startsWith("rm")),
        command,
      ).toEqual([]);
    }
  });

  it("is unsure where a line continuation joins a program's name (tree-sitter-bash splits it)", async () => {
    const command = "r\\\nm x";
    expect(await theLab().ran(command, "bash")).toEqual([["rm", "x"]]);
    expect(splitBashCommand(command)).toBeUndefined();
  });

  it("never leaves out a program that ran, on generated hostile commands", async () => {
    await fc.assert(
      fc.asyncProperty(hostileCommand, async (command) => {
        const ran = (await judgeCorpus(theLab(), [command])).get(command)!;
        expect({ command, verdict: verdict(splitBashCommand(command), ran) }).not.toEqual({
          command,
          verdict: "missed",
        });
      }),
      { numRuns: 40 },
    );
  }, 300_000);
});
