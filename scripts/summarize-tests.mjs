#!/usr/bin/env node
// Sums every package's vitest JSON report (and the Python SDK's pytest JUnit report) into one
// closing line, "N passed, N failed", so the whole suite reports one count. Fails when no test
// ran at all.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
let passed = 0;
let failed = 0;
let files = 0;
for (const group of ["packages", "apps", "examples", "bench"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  const candidates =
    group === "examples" || group === "bench" ? [dir] : readdirSync(dir).map((d) => join(dir, d));
  for (const pkg of candidates) {
    for (const name of ["vitest.json", "vitest-attack.json"]) {
      const report = join(pkg, "test-artifacts", name);
      if (!existsSync(report)) continue;
      const json = JSON.parse(readFileSync(report, "utf8"));
      passed += json.numPassedTests ?? 0;
      failed += (json.numFailedTests ?? 0) + (json.numTodoTests ?? 0) + (json.numPendingTests ?? 0);
      files++;
    }
  }
}
// The Python SDK (clients/python): pytest's JUnit XML. Skipped tests count as failed, as
// vitest's pending ones do above.
const junit = join(root, "clients", "python", "test-artifacts", "pytest.xml");
if (existsSync(junit)) {
  for (const [, attrs] of readFileSync(junit, "utf8").matchAll(/<testsuite\b([^>]*)>/g)) {
    const count = (name) => Number(attrs.match(new RegExp(`\\b${name}="(\\d+)"`))?.[1] ?? 0);
    const bad = count("failures") + count("errors") + count("skipped");
    passed += count("tests") - bad;
    failed += bad;
  }
  files++;
}
console.log(`\nTest reports read: ${files}`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
