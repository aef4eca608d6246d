import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const APPROVALS = path.join(ROOT, "packages", "node", "src", "approvals");

/**
 * What a store folder made today depends on: PGlite's version and the store's own code (its
 * migrations and the setup `openApprovalStore` runs).
 */
function templateKey(): string {
  // PGlite's package.json is not among its exports: found above its entry.
  let pglite = createRequire(path.join(ROOT, "packages", "node", "package.json")).resolve(
    "@electric-sql/pglite",
  );
  while (!existsSync(path.join(pglite, "package.json"))) pglite = path.dirname(pglite);
  const hash = createHash("sha256").update(readFileSync(path.join(pglite, "package.json")));
  for (const file of readdirSync(APPROVALS).sort()) {
    if (file.endsWith(".ts") && !file.endsWith(".test.ts"))
      hash.update(file).update(readFileSync(path.join(APPROVALS, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

let template: Promise<string> | undefined;

/** The template folder, made on first use in this checkout (by whichever process gets there first). */
function theTemplate(): Promise<string> {
  template ??= (async () => {
    const folder = path.join(ROOT, "node_modules", ".cache", "a3s-tests", `store-${templateKey()}`);
    if (existsSync(folder)) return folder;
    const draft = `${folder}.${process.pid}.${Date.now()}`;
    const { openApprovalStore } = await import(
      "../packages/node/src/approvals/open-approval-store.ts"
    );
    await mkdir(path.dirname(draft), { recursive: true });
    await (await openApprovalStore(draft)).close();
    try {
      await rename(draft, folder);
    } catch (error) {
      // Another test process made it first: theirs is the same.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      await rm(draft, { recursive: true, force: true });
    }
    return folder;
  })();
  return template;
}

/**
 * An embedded approval store's folder at `folder`, empty of approvals and ready to open: a copy
 * of one made once per checkout, so a test does not pay for PostgreSQL's initdb and the
 * migrations (seconds of CPU) in every store it starts from. It is the folder a store that was
 * opened once and closed leaves behind. A test of what the first open of a new folder does
 * opens a folder of its own instead.
 */
export async function preparedEmbeddedStore(folder: string): Promise<string> {
  // GNU cp: several times faster than fs.cp on the template's thousand small files.
  await promisify(execFile)("cp", ["-R", "-T", await theTemplate(), folder]);
  return folder;
}
