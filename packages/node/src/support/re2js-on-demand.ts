import { createRequire } from "node:module";
import type { RE2JS as Re2js } from "re2js";

let loaded: typeof Re2js | undefined;

/**
 * What the `a3s-hooks` build puts where `linear-regex.ts` imports `re2js` (an alias in
 * tsup.config.ts; nothing imports this file by name): the same `RE2JS.compile`, with re2js
 * loaded on the first pattern compiled. re2js is a quarter of a megabyte of JavaScript, and most
 * CLI calls (`--help`, `validate` of settings with plain tool names) compile no pattern.
 * Only the CLI's own build takes it: there `import.meta.url` is always its file, so re2js
 * resolves from the CLI's installation, where a library bundled again by its user might not
 * find it.
 */
export const RE2JS: Pick<typeof Re2js, "compile"> = {
  compile(...args: Parameters<typeof Re2js.compile>) {
    loaded ??= (createRequire(import.meta.url)("re2js") as { RE2JS: typeof Re2js }).RE2JS;
    return loaded.compile(...args);
  },
};
