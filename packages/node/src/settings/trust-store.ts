import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod";
import { canonicalJson } from "./json-text.js";

/** One trusted project: the hash of the hook definitions the user agreed to. */
export interface TrustEntry {
  hash: string;
  /** ISO 8601. */
  trustedAt: string;
  /** How many hooks the project defined when it was trusted. */
  hooks: number;
}

/** One project hook trusted on its own (`a3s-hooks trust --hook ID`). */
export interface HookTrustEntry {
  /** ISO 8601. */
  trustedAt: string;
  /** The project files its command runs, with their hashes when it was trusted. */
  scripts: { path: string; hash: string }[];
}

/** One hook kept from running (`a3s-hooks disable ID`). */
export interface HookDisableEntry {
  /** ISO 8601. */
  disabledAt: string;
  /** The file it is in, for people reading the store. */
  source: string;
}

/** The user's record of trusted projects, keyed by project directory. */
export interface TrustStore {
  version: 1;
  projects: Record<string, TrustEntry>;
  /** Project hooks trusted one by one, keyed by hook id. */
  trustedHooks?: Record<string, HookTrustEntry>;
  /** Hooks turned off, keyed by hook id. */
  disabledHooks?: Record<string, HookDisableEntry>;
}

const storeSchema = z.object({
  version: z.literal(1),
  projects: z.record(
    z.string(),
    z.object({ hash: z.string(), trustedAt: z.string(), hooks: z.number() }),
  ),
  trustedHooks: z
    .record(
      z.string(),
      z.object({
        trustedAt: z.string(),
        scripts: z.array(z.object({ path: z.string(), hash: z.string() })),
      }),
    )
    .optional(),
  disabledHooks: z
    .record(z.string(), z.object({ disabledAt: z.string(), source: z.string() }))
    .optional(),
});

/** Where the trust store lives: `<home>/.config/a3s-hooks/trusted.json`. */
export function trustStorePath(home: string): string {
  return join(home, ".config", "a3s-hooks", "trusted.json");
}

/** Read the trust store. A missing file is an empty store; a corrupt one is empty plus a problem. */
export async function readTrustStore(
  home: string,
): Promise<{ store: TrustStore; problem?: string }> {
  const path = trustStorePath(home);
  const empty = (): TrustStore => ({ version: 1, projects: {} });
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { store: empty() };
    return { store: empty(), problem: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    const parsed = storeSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { store: parsed.data as TrustStore };
  } catch {
    // Falls through to the corrupt-store answer.
  }
  return {
    store: empty(),
    problem: `${path} is not a valid trust store; no project counts as trusted until it is rewritten by "a3s-hooks trust"`,
  };
}

/** Write the store atomically (temp file + rename), readable by the user only. */
export async function writeTrustStore(home: string, store: TrustStore): Promise<string> {
  const path = trustStorePath(home);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return path;
}

/** `sha256:<hex>` of a value's canonical JSON (keys sorted), so formatting changes do not count. */
export function hashDefinitions(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}
