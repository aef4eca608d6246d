/**
 * Compares readers of shell text on the splitter's adversarial corpus, with real `dash` and
 * `bash` as the judge (test/shell/split-judge.ts): our `if` splitter, tree-sitter-bash (through
 * web-tree-sitter) feeding the same word tables, and mvdan/sh (through sh-syntax). The parsers
 * are not dependencies of the package; install them anywhere and name the folder:
 *
 *   npm install --prefix /tmp/parsers sh-syntax web-tree-sitter tree-sitter-bash --ignore-scripts
 *   A3S_PARSERS=/tmp/parsers/node_modules pnpm exec tsx --conditions=@a3s-lab/source \
 *     scripts/shell-parser-eval.ts [generated-count]
 *
 * Prints a Markdown table (the one in docs/shell.md) and the commands each reader got wrong.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import {
  type SplitCommand,
  splitBashCommand,
  splitSimpleCommands,
} from "../src/shell/bash-subcommands.js";
import {
  FIXED_CORPUS,
  hostileCommand,
  judgeCorpus,
  SHELLS,
  splitLab,
  type Tally,
  tally,
} from "../test/shell/split-judge.js";

const dir = process.env.A3S_PARSERS;
if (!dir) throw new Error("A3S_PARSERS: set it to a node_modules folder holding the parsers");
const load = (name: string, file: string) => import(pathToFileURL(join(dir, name, file)).href);

// biome-ignore lint/suspicious/noExplicitAny: the parsers are loaded from outside the package.
type Node = any;

/** Node types whose code the splitter never reads (same policy as ours: the guard runs). */
const UNSURE_NODES = new Set([
  "function_definition",
  "arithmetic_expansion",
  "c_style_for_statement",
  "ERROR",
]);
/** Nodes that hold code: a command substitution in a word stands as `$(…)` there. */
const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
/** Nodes that are words of a simple command. */
const NOT_WORDS = new Set([
  "file_redirect",
  "herestring_redirect",
  "heredoc_redirect",
  "heredoc_body",
  "comment",
]);

/** The simple commands tree-sitter-bash finds, as words as written; undefined when unsure. */
function treeSitterCommands(root: Node, source: string): string[][] | undefined {
  if (root.hasError) return undefined;
  const commands: string[][] = [];
  let sure = true;
  const wordText = (node: Node): string => {
    let text = "";
    let at = node.startIndex;
    const visit = (n: Node) => {
      if (SUBSTITUTIONS.has(n.type)) {
        text += `${source.slice(at, n.startIndex)}$(…)`;
        at = n.endIndex;
        walk(n);
        return;
      }
      for (const c of n.namedChildren) visit(c);
    };
    visit(node);
    return text + source.slice(at, node.endIndex);
  };
  const walk = (node: Node): void => {
    if (UNSURE_NODES.has(node.type) || node.isMissing) sure = false;
    if (node.type === "expansion" && !/^\$\{(?:[A-Za-z_]\w*|\d+|[#?$!@*-])\}$/.test(node.text)) {
      sure = false;
    }
    if (node.type === "test_command" && node.text.startsWith("[[")) sure = false;
    if (
      node.type === "command" ||
      node.type === "declaration_command" ||
      node.type === "unset_command"
    ) {
      const words: string[] = [];
      for (const child of node.children) {
        if (NOT_WORDS.has(child.type)) walk(child);
        else if (child.isNamed || child.type !== "\n") words.push(wordText(child));
      }
      if (words.length > 0) commands.push(words);
      return;
    }
    if (node.type === "test_command") {
      commands.push(node.children.map((c: Node) => wordText(c)));
      return;
    }
    if (node.type === "variable_assignment" && node.parent?.type !== "command") {
      commands.push([wordText(node)]);
      return;
    }
    for (const c of node.namedChildren) walk(c);
  };
  walk(root);
  return sure ? commands : undefined;
}

interface Reader {
  readonly name: string;
  read(command: string): SplitCommand | undefined;
}

async function main(): Promise<void> {
  const generated = Number(process.argv[2] ?? 400);
  const { Parser, Language } = await load("web-tree-sitter", "web-tree-sitter.js");
  await Parser.init();
  const bash = await Language.load(join(dir!, "tree-sitter-bash", "tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(bash);
  const shSyntax = await load("sh-syntax", "lib/index.js");

  const commands = [
    ...new Set([...FIXED_CORPUS, ...fc.sample(hostileCommand, { numRuns: generated, seed: 25 })]),
  ];
  const lab = splitLab();
  const judged = await judgeCorpus(lab, commands);
  const parsesIn = new Map(
    SHELLS.map((s) => [s, new Set(commands.filter((c) => lab.parses(c, s)))]),
  );
  lab.dispose();

  const readers: Reader[] = [
    { name: "ours (simple-commands.ts)", read: splitBashCommand },
    {
      name: "tree-sitter-bash + our word tables",
      read: (command) => {
        const tree = parser.parse(command);
        const simple = treeSitterCommands(tree.rootNode, command);
        tree.delete();
        return simple === undefined ? undefined : splitSimpleCommands(simple);
      },
    },
  ];
  const rows: string[] = [];
  const wrongs: string[] = [];
  for (const reader of readers) {
    const t: Tally = tally(judged, reader.read);
    const start = process.hrtime.bigint();
    for (let round = 0; round < 5; round++) for (const c of commands) reader.read(c);
    const micros = Number(process.hrtime.bigint() - start) / 1000 / (5 * commands.length);
    rows.push(
      `| ${reader.name} | ${t.counts.missed} | ${t.counts["wrong-words"]} | ${t.counts.refused} | ${t.counts.right} | ${micros.toFixed(0)} µs |`,
    );
    for (const w of t.wrong)
      wrongs.push(`${reader.name}\t${w.verdict}\t${JSON.stringify(w.command)}`);
  }
  // sh-syntax's JavaScript tree carries positions only (no words, no command kinds), so it can
  // say whether a text parses, not what runs: counted against `bash -n`.
  let agree = 0;
  const disagree: string[] = [];
  const start = process.hrtime.bigint();
  for (const c of commands) {
    const ok = await shSyntax.parse(c).then(
      () => true,
      () => false,
    );
    if (ok === parsesIn.get("bash")!.has(c)) agree++;
    else
      disagree.push(
        `sh-syntax ${ok ? "accepts" : "rejects"}, bash -n ${ok ? "rejects" : "accepts"}: ${JSON.stringify(c)}`,
      );
  }
  const shMicros = Number(process.hrtime.bigint() - start) / 1000 / commands.length;
  let tsAgree = 0;
  for (const c of commands) {
    const tree = parser.parse(c);
    if (!tree.rootNode.hasError === parsesIn.get("bash")!.has(c)) tsAgree++;
    tree.delete();
  }

  console.log(
    `${commands.length} commands (${FIXED_CORPUS.length} fixed, the rest generated, seed 25)\n`,
  );
  console.log(
    "| reader | missed a program that ran | wrong words | unsure | right | per command |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  console.log(
    `\nAgreement with \`bash -n\` on whether a command parses: sh-syntax ${agree}/${commands.length} (${shMicros.toFixed(0)} µs per parse, asynchronous), tree-sitter-bash ${tsAgree}/${commands.length}.`,
  );
  console.log("\nWrong answers:");
  for (const w of wrongs) console.log(w);
  for (const d of disagree) console.log(d);
}

await main();
