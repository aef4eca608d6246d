/**
 * The guides in docs/guide/ are checked like the READMEs: every TypeScript example typechecks
 * and runs (here, where the agent, the SDK and the hook server all resolve), every shell
 * command runs from the repository root as a reader pastes it and prints what the guide says,
 * and every link in docs/ and the README leads to a file (and heading) of the repository or to
 * a public standard.
 */
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  describeDocCommands,
  docSteps,
  firstUnmatched,
} from "../../../test-support/doc-commands.ts";
import { programArgs } from "../../../test-support/program-bundles.ts";
import { describeReadmeExamples } from "../../../test-support/readme-examples.ts";
import { PROGRAMS } from "./bundle-programs.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const GUIDE = path.join(ROOT, "docs", "guide");
const guides = readdirSync(GUIDE)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => pathToFileURL(path.join(GUIDE, f)));

/**
 * What `pnpm example FILE` runs: the examples package's `start` script, tsx on its runner, in the
 * package's folder. The examples below run that command directly (without two pnpm start-ups
 * per example); the first test pins both scripts to it.
 */
const EXAMPLES = path.join(ROOT, "examples");
const EXAMPLE_SCRIPTS = {
  root: "pnpm --filter @a3s-lab/examples start",
  examples: "tsx --conditions=@a3s-lab/source src/main.ts",
};
const tsxCli = createRequire(path.join(EXAMPLES, "package.json")).resolve("tsx/cli");

/**
 * A guide's example the way the guides say to run one: saved as a file outside the repository's
 * packages (where `@a3s-lab/…` would not resolve on its own) and run as `pnpm example FILE`
 * runs it, in a process of its own.
 */
async function pnpmExample(scratchFile: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "a3s-guide-example-"));
  try {
    const file = path.join(dir, "my-hook.ts");
    copyFileSync(scratchFile, file);
    const { stdout, stderr, code } = await new Promise<{
      stdout: string;
      stderr: string;
      code: number | null;
    }>((done, fail) => {
      const child = spawn(
        process.execPath,
        [tsxCli, ...EXAMPLE_SCRIPTS.examples.split(" ").slice(1), file],
        {
          cwd: EXAMPLES,
          env: { ...process.env, NO_COLOR: "1", A3S_ADDRESS: undefined, A3S_TOKEN: undefined },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
      child.on("error", fail);
      child.on("close", (exit) => done({ stdout: out, stderr: err, code: exit }));
    });
    expect(code, `pnpm example ${file} failed:\n${stderr}`).toBe(0);
    return stdout.split("\n").filter((line) => line !== "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the guides' TypeScript examples", () => {
  it("run the way `pnpm example FILE` runs them", () => {
    const scripts = (dir: string) =>
      (
        JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
          scripts: Record<string, string>;
        }
      ).scripts;
    expect(scripts(ROOT).example).toBe(EXAMPLE_SCRIPTS.root);
    expect(scripts(EXAMPLES).start).toBe(EXAMPLE_SCRIPTS.examples);
  });
  describeReadmeExamples({
    readme: guides,
    scratch: new URL("./.readme-tmp/", import.meta.url),
    tsconfig: new URL("../tsconfig.json", import.meta.url),
    minExamples: 8,
    run: pnpmExample,
    timeoutMs: 120_000,
  });
});

describe("the guides' pages", () => {
  it("are the browser README's page, which browser-readme.e2e.test.ts runs in Chromium", () => {
    const readme = readFileSync(path.join(ROOT, "packages", "browser", "README.md"), "utf8");
    const pages = guides.flatMap((guide) => [
      ...readFileSync(guide, "utf8").matchAll(/```html\n([\s\S]*?)```/g),
    ]);
    expect(pages.length).toBeGreaterThan(0);
    for (const [, page] of pages) expect(readme).toContain(page);
  });
});

describe("how a guide's commands are read", () => {
  const fence = "```";
  const steps = docSteps(
    [
      `${fence}json file=~/p/.claude/settings.json`,
      "{}",
      fence,
      `${fence}sh`,
      "# a comment",
      "pnpm a3s-hooks validate --cwd ~/p",
      "pnpm a3s-hooks test Stop  # exits 2",
      fence,
      "",
      `${fence}text`,
      "Result: …",
      fence,
      `${fence}sh`,
      "pnpm serve  # runs until Ctrl-C",
      fence,
      `${fence}ts`,
      "x",
      fence,
    ].join("\n"),
  );

  it("files, commands, exit codes, and the output shown after a command", () => {
    expect(steps).toEqual([
      { kind: "file", file: "~/p/.claude/settings.json", content: "{}\n" },
      {
        kind: "command",
        line: "pnpm a3s-hooks validate --cwd ~/p",
        expect: [],
        exitCode: 0,
        untilStopped: false,
      },
      {
        kind: "command",
        line: "pnpm a3s-hooks test Stop  # exits 2",
        expect: ["Result: …"],
        exitCode: 2,
        untilStopped: false,
      },
      {
        kind: "command",
        line: "pnpm serve  # runs until Ctrl-C",
        expect: [],
        exitCode: 0,
        untilStopped: true,
      },
    ]);
  });

  it("matches whole lines in order, … standing for any text", () => {
    const output = "> pnpm header\nFired Stop.\n  block, exit 2, 31 ms\nResult: block: no\n";
    expect(
      firstUnmatched(["Fired Stop.", "  block, exit 2, … ms", "Result: block: no"], output),
    ).toBe(-1);
    expect(firstUnmatched(["Result: block: no", "Fired Stop."], output)).toBe(1);
    expect(firstUnmatched(["Result: block: no", "Fired Stop."], output, false)).toBe(-1);
    expect(firstUnmatched(["block, exit 2, … ms"], output)).toBe(0); // indentation counts
    expect(firstUnmatched(["Result: block"], output)).toBe(0); // a whole line, not a prefix
  });
});

/**
 * The root `serve` script: tsx on the demo's CLI, from source. The guides' `pnpm serve` runs
 * below as that CLI's bundle (this test run's build of the same source), which the first test
 * pins to the script; `pnpm demo` stays the script itself, through pnpm and tsx.
 */
const SERVE_SCRIPT = `tsx --conditions=@a3s-lab/source ${path.relative(ROOT, PROGRAMS.demo)} serve`;

describe("the guides' shell commands", () => {
  it("`pnpm serve` is the demo CLI's serve, whose bundle runs it below", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.serve).toBe(SERVE_SCRIPT);
  });
  // `pnpm a3s-hooks` runs the CLI from source through tsx; once it is built (as `pnpm test`
  // builds it first) the same commands run the installed CLI, without pnpm's and tsx's start-up.
  const cli = path.join(ROOT, "packages", "node", "bin", "a3s-hooks.cjs");
  // (`mcp-proxy` in a checkout loads the sibling package's build, so that must be built too.)
  const built = [
    ["node", "dist", "cli", "a3s-hooks.js"],
    ["mcp", "dist", "index.js"],
  ].every((file) => existsSync(path.join(ROOT, "packages", ...file)));
  // `pnpm serve` (twice in the guides, each a server the test stops) as the bundled demo CLI:
  // the same program without pnpm's start-up and tsx transpiling the demo and every package.
  const serve = [process.execPath, ...programArgs("demo", ["serve"])];
  describeDocCommands({
    documents: guides,
    root: ROOT,
    minCommands: 8,
    scripts: { serve, ...(built ? { "a3s-hooks": [process.execPath, cli] } : {}) },
  });
});

/** Where a link may lead outside the repository: public standards and the projects we build on. */
const PUBLIC = [
  "https://www.rfc-editor.org/",
  "https://datatracker.ietf.org/",
  "https://www.w3.org/",
  "https://html.spec.whatwg.org/",
  "https://json-schema.org/",
  "https://modelcontextprotocol.io/",
  "https://www.npmjs.com/package/",
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}

/** A Markdown file's text outside fenced code blocks (fences of three or more backticks or tildes). */
function prose(file: string): string {
  let fence: string | undefined;
  const kept: string[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker?.startsWith(fence) && line.trim() === marker)
      fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  return kept.join("\n");
}

function anchorsOf(file: string): Set<string> {
  const text = prose(file);
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(heading!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  for (const [, id] of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return entry.endsWith(".md") ? [full] : [];
  });
}

/** The link targets of a Markdown file, code left out. */
function linksOf(file: string): string[] {
  const text = prose(file).replace(/`[^`\n]*`/g, "");
  return [
    ...[...text.matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\[[^\]]+\]: (\S+)/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/<(?:a|img) [^>]*(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<(https?:\/\/[^>]+)>/g)].map((m) => m[1]!),
  ];
}

/** What is wrong with each link of `file`: leaving `root` (but for PUBLIC), a missing file or heading. */
function brokenLinks(file: string, root: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(file)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
      if (!PUBLIC.some((prefix) => link.startsWith(prefix)))
        broken.push(`${link}: leaves the repository`);
      continue;
    }
    const [target, anchor] = link.split("#") as [string, string | undefined];
    let resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURI(target));
    // A folder's link shows its README, and its anchors are the README's.
    if (anchor && existsSync(resolved) && statSync(resolved).isDirectory())
      resolved = path.join(resolved, "README.md");
    if (!resolved.startsWith(root)) broken.push(`${link}: outside the repository`);
    else if (!existsSync(resolved)) broken.push(`${link}: no such file`);
    else if (anchor !== undefined && anchor !== "") {
      if (!resolved.endsWith(".md"))
        broken.push(`${link}: an anchor into a file that is not Markdown`);
      else if (!anchorsOf(resolved).has(anchor)) broken.push(`${link}: no heading #${anchor}`);
    }
  }
  return broken;
}

describe("the link check", () => {
  it("finds links that leave, files that are missing, and headings that are not there", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "a3s-links-"));
    try {
      writeFileSync(
        path.join(dir, "b.md"),
        "# B\n\n## The `a3s-hooks` CLI\n\n```sh\n## not a heading\n```\n",
      );
      writeFileSync(
        path.join(dir, "a.md"),
        [
          "[ok](b.md#the-a3s-hooks-cli) [rfc](https://www.rfc-editor.org/rfc/rfc7386)",
          "[gone](c.md) [anchor](b.md#not-a-heading) [away](https://example.com/x)",
          "`[code](nowhere.md)`",
        ].join("\n"),
      );
      expect(brokenLinks(path.join(dir, "a.md"), dir)).toEqual([
        "c.md: no such file",
        "b.md#not-a-heading: no heading #not-a-heading",
        "https://example.com/x: leaves the repository",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("links in docs/ and the README", () => {
  const files = [path.join(ROOT, "README.md"), ...markdownFiles(path.join(ROOT, "docs"))];
  it.each(files.map((f) => [path.relative(ROOT, f), f] as const))(
    "%s links only to the repository or to public standards",
    (_name, file) => {
      expect(brokenLinks(file, ROOT)).toEqual([]);
    },
  );

  it("the README links every guide", () => {
    const readme = linksOf(path.join(ROOT, "README.md"));
    for (const guide of guides) {
      const relative = path.relative(ROOT, fileURLToPath(guide));
      expect(readme, relative).toContain(relative);
    }
  });
});
