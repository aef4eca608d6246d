/** The README's offline example still runs and prints what the README says it prints. */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
// Inside the package, so `@a3s-lab/*` resolve as they would for a user.
const SCRIPT = `${PACKAGE}.readme-example.ts`;

afterAll(() => rmSync(SCRIPT, { force: true }));

describe("README", () => {
  it("runs its offline example and prints what it promises", () => {
    const readme = readFileSync(`${PACKAGE}README.md`, "utf8");
    const example = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((code) => code.includes("console.log(JSON.stringify([denied, rewritten]))"));
    expect(example).toBeDefined();
    const promised = /console\.log\(JSON\.stringify\(\[denied, rewritten\]\)\); \/\/ (.+)/.exec(
      example!,
    )?.[1];
    expect(promised).toBeDefined();
    writeFileSync(SCRIPT, example!);
    const output = execFileSync(
      process.execPath,
      ["--conditions=@a3s-lab/source", "--import", "tsx", SCRIPT],
      { cwd: PACKAGE, encoding: "utf8", timeout: 20_000 },
    );
    expect(output.trim()).toBe(promised);
  });
});
