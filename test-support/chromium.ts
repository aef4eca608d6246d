import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../vitest.shared.ts";

/**
 * Debian's headless Chromium through playwright-core (nothing downloads a browser), with a
 * fresh profile (`--user-data-dir`) per launch, removed on close.
 */
export async function launchChromium(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = await mkdtemp(path.join(os.tmpdir(), "a3s-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1100, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
