/**
 * The README's pictures, kept current by the tests that see what they show. With
 * `A3S_SCREENSHOTS=1` (what `pnpm screenshots` sets) a test writes its picture into docs/images/;
 * otherwise it checks the committed one still fits: a screenshot has the page's current size, a
 * rendered transcript the current text.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const IMAGES_DIR = fileURLToPath(new URL("../docs/images/", import.meta.url));
export const UPDATE_SCREENSHOTS = process.env.A3S_SCREENSHOTS === "1";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's header chunk, which always comes first. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const isPng =
    png.byteLength >= 24 &&
    PNG_SIGNATURE.every((b, i) => png[i] === b) &&
    String.fromCharCode(...png.subarray(12, 16)) === "IHDR";
  if (!isPng) throw new Error("not a PNG file (no signature and IHDR chunk)");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function readCommitted(name: string): Promise<Buffer> {
  try {
    return await readFile(path.join(IMAGES_DIR, name));
  } catch (error) {
    throw new Error(`docs/images/${name} is missing: run \`pnpm screenshots\``, { cause: error });
  }
}

/** Write the screenshot (when asked) or check the committed one has the page's size. */
export async function keepScreenshot(name: string, png: Uint8Array): Promise<void> {
  if (UPDATE_SCREENSHOTS) {
    await mkdir(IMAGES_DIR, { recursive: true });
    await writeFile(path.join(IMAGES_DIR, name), png);
    return;
  }
  const now = pngSize(png);
  const then = pngSize(await readCommitted(name));
  if (now.width !== then.width || now.height !== then.height) {
    throw new Error(
      `docs/images/${name} is ${then.width}×${then.height} but the page is now ${now.width}×${now.height}: run \`pnpm screenshots\``,
    );
  }
}

/**
 * Write a text picture (when asked) or check the committed one is the same once `normalize`
 * has taken out what differs from run to run (temporary paths, ids).
 */
export async function keepTextImage(
  name: string,
  text: string,
  normalize: (text: string) => string,
): Promise<void> {
  if (UPDATE_SCREENSHOTS) {
    await mkdir(IMAGES_DIR, { recursive: true });
    await writeFile(path.join(IMAGES_DIR, name), text);
    return;
  }
  const committed = normalize((await readCommitted(name)).toString("utf8")).split("\n");
  const current = normalize(text).split("\n");
  const line = current.findIndex((l, i) => l !== committed[i]);
  if (line !== -1 || committed.length !== current.length) {
    const at = line === -1 ? current.length : line;
    throw new Error(
      `docs/images/${name} no longer shows the current output: run \`pnpm screenshots\`\n` +
        `line ${at + 1} was: ${committed[at] ?? "(none)"}\nline ${at + 1} is:  ${current[at] ?? "(none)"}`,
    );
  }
}
