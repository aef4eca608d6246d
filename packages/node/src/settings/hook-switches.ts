import { homedir } from "node:os";
import { resolve } from "node:path";
import { hookFingerprint } from "./hook-fingerprint.js";
import type { SettingsHook } from "./hook-settings.js";
import { projectScripts, type TrustedScript } from "./project-scripts.js";
import { readTrustStore, writeTrustStore } from "./trust-store.js";

/**
 * One hook's switches in the user's trust store, by the id `a3s-hooks list` shows: trusted on
 * its own (a project hook), or turned off (any hook but a managed one). The other agent's file
 * is never edited.
 */
export interface HookSwitchOptions {
  /** The user's home directory (the store is `<home>/.config/a3s-hooks/trusted.json`). */
  home?: string;
}

/** Trust one project hook as it is now: its definition (by its id) and the project files it runs. */
export async function trustHook(
  hook: SettingsHook,
  projectDir: string,
  options: HookSwitchOptions = {},
): Promise<{ id: string; scripts: TrustedScript[]; storePath: string }> {
  const home = resolve(options.home ?? homedir());
  const id = hookFingerprint(hook);
  const scripts = await projectScripts([hook], projectDir);
  const { store } = await readTrustStore(home);
  store.trustedHooks = {
    ...store.trustedHooks,
    [id]: { trustedAt: new Date().toISOString(), scripts },
  };
  return { id, scripts, storePath: await writeTrustStore(home, store) };
}

/** Forget one hook's own trust. False when it had none. */
export async function untrustHook(id: string, options: HookSwitchOptions = {}): Promise<boolean> {
  return removeEntry("trustedHooks", id, options);
}

/** Turn one hook off (it stays in its file, listed as disabled). */
export async function disableHook(
  hook: SettingsHook,
  options: HookSwitchOptions = {},
): Promise<{ id: string; storePath: string }> {
  const home = resolve(options.home ?? homedir());
  const id = hookFingerprint(hook);
  const { store } = await readTrustStore(home);
  store.disabledHooks = {
    ...store.disabledHooks,
    [id]: { disabledAt: new Date().toISOString(), source: hook.source },
  };
  return { id, storePath: await writeTrustStore(home, store) };
}

/** Turn a hook turned off by `disableHook` back on. False when it was not off. */
export async function enableHook(id: string, options: HookSwitchOptions = {}): Promise<boolean> {
  return removeEntry("disabledHooks", id, options);
}

async function removeEntry(
  key: "trustedHooks" | "disabledHooks",
  id: string,
  options: HookSwitchOptions,
): Promise<boolean> {
  const home = resolve(options.home ?? homedir());
  const { store } = await readTrustStore(home);
  const entries = store[key];
  if (!entries || !Object.hasOwn(entries, id)) return false;
  delete entries[id];
  await writeTrustStore(home, store);
  return true;
}
