import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/**
 * The type tests (`*.test-d.ts`) are compiled by the package's `typecheck` script, not by
 * vitest: that `tsc` already checks every file its projects include, so a second `tsc` inside the
 * test run would repeat it. This reads the projects the script names (`-p`/`--project`, and
 * `-b`/`--build` with their references) and returns each type test that none of them includes,
 * so that a tsconfig or script edit cannot quietly stop checking one.
 */
export function typeTestsOutsideTypecheck(packageDir: string): {
  typeTests: string[];
  unchecked: string[];
} {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const script = manifest.scripts?.typecheck ?? "";
  const checked = new Set<string>();
  const seen = new Set<string>();
  const addProject = (path: string) => {
    const file = ts.sys.directoryExists(path) ? join(path, "tsconfig.json") : path;
    if (seen.has(file)) return;
    seen.add(file);
    const read = ts.readConfigFile(file, ts.sys.readFile);
    if (read.error)
      throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file));
    for (const name of parsed.fileNames) checked.add(resolve(name));
    for (const reference of parsed.projectReferences ?? []) addProject(reference.path);
  };
  for (const command of script.split("&&")) {
    const words = command.trim().split(/\s+/);
    if (words[0] !== "tsc") continue;
    const flag = words.findIndex((w) => ["-p", "--project", "-b", "--build"].includes(w));
    const target = flag >= 0 ? words[flag + 1] : undefined;
    addProject(resolve(packageDir, target && !target.startsWith("-") ? target : "tsconfig.json"));
  }
  const typeTests = findTypeTests(packageDir);
  return { typeTests, unchecked: typeTests.filter((file) => !checked.has(file)) };
}

function findTypeTests(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "dist") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTypeTests(path);
    return entry.name.endsWith(".test-d.ts") ? [resolve(path)] : [];
  });
}
