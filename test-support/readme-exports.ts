import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

type Groups = Record<string, string[]>;

/** An entry's named exports, grouped by the `// ── For …` banner they sit under. */
export function entryExports(entry: URL): Groups {
  const path = fileURLToPath(entry);
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const text = source.getFullText();
  const groups: Groups = {};
  let group = "(no banner)";
  for (const statement of source.statements) {
    const banner = [
      ...text.slice(statement.getFullStart(), statement.getStart()).matchAll(/── (For [^:─]+)/g),
    ].pop();
    if (banner?.[1]) group = banner[1].trim();
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) continue;
    for (const element of clause.elements) (groups[group] ??= []).push(element.name.text);
  }
  return sorted(groups);
}

/**
 * The lists under a README's `### Exports` heading (or another, for a subpath's entry): one
 * bullet per audience, `- **For hosts**: \`HookEngine\`, …`, every name in backticks.
 */
export function readmeExports(readme: URL, heading = "### Exports"): Groups {
  const text = readFileSync(fileURLToPath(readme), "utf8");
  const section = text.split(`\n${heading}\n`)[1]?.split(/^#/m)[0] ?? "";
  const groups: Groups = {};
  for (const item of section.split(/^- /m).slice(1)) {
    const bullet = item.split("\n\n")[0] ?? "";
    const audience = /^\*\*(For [^*]+)\*\*/.exec(bullet)?.[1];
    if (!audience) continue;
    groups[audience] = [...bullet.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]!);
  }
  return sorted(groups);
}

function sorted(groups: Groups): Groups {
  return Object.fromEntries(
    Object.entries(groups).map(([k, names]) => [k, [...new Set(names)].sort()]),
  );
}

/**
 * A test: the README's `### Exports` lists (or those under `heading`) name exactly what the
 * entry exports, by audience.
 */
export function itListsTheExports(readme: URL, entry: URL, heading?: string): void {
  it(`lists every export of ${entry.pathname.split("/").pop()} in the README, by audience, and nothing else`, () => {
    const listed = readmeExports(readme, heading);
    expect(Object.keys(listed).length).toBeGreaterThan(0);
    expect(listed).toEqual(entryExports(entry));
  });
}
