import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, vi } from "vitest";
import { describeReadmeExamples } from "../../../../test-support/readme-examples.ts";

// The command-hook and settings part of the README (the hook-server part runs in
// test/remote/readme-server.test.ts).
let home: string;
beforeAll(() => {
  // The examples read the user's settings files: give them an empty home.
  home = mkdtempSync(`${tmpdir()}/a3s-readme-home-`);
  vi.stubEnv("HOME", home);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describeReadmeExamples({
  readme: new URL("../../README.md", import.meta.url),
  // The approvals example opens PGlite, which takes its own test (test/approvals-readme.test.ts).
  part: (text) =>
    text.split(/^## Hook server/m)[0]!.replace(/^## Approvals that wait[\s\S]*?(?=^## )/m, ""),
  scratch: new URL("./.readme-tmp/", import.meta.url),
  minExamples: 3,
});
