// A module resolve hook for `pnpm example <file>`: a file saved anywhere imports the
// repository's packages (`@a3s-lab/…`) from the workspace, each through its own `exports` (a
// package may import itself by name), and any other package from this examples package, whose
// dependencies are installed. Plain JavaScript: Node loads hooks before tsx compiles anything.
export async function initialize(data) {
  packages = new Map(Object.entries(data.packages));
  fallback = data.fallback;
  entry = data.entry;
}

let packages = new Map();
let fallback = "";
let entry = "";

// The file run is an ES module wherever it is saved (top-level await works in a folder without
// a package.json saying "type": "module"), as it would be in this repository.
export async function load(url, context, next) {
  return next(url, url === entry ? { ...context, format: "module" } : context);
}

export async function resolve(specifier, context, next) {
  if (/^[./]|^[a-z]+:/i.test(specifier)) return next(specifier, context);
  const name = specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
  const own = packages.get(name);
  if (own && context.parentURL === entry) return next(specifier, { ...context, parentURL: own });
  try {
    return await next(specifier, context);
  } catch {
    // Where the file is, the package is not installed: resolve it as the workspace would.
    return next(specifier, { ...context, parentURL: own ?? fallback });
  }
}
