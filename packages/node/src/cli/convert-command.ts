import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import {
  CONVERT_FORMATS,
  type ConvertFormat,
  convertHooks,
} from "../settings/formats/convert-hooks.js";
import { detectFormat, HOOK_FORMATS } from "../settings/formats/hook-formats.js";
import { parseJsonText } from "../settings/json-text.js";
import { displayPath, formatProblem } from "../settings/settings-problem.js";
import type { CliIo } from "./cli-context.js";
import { CliError } from "./cli-error.js";

export interface ConvertArgs {
  cwd?: string;
  from?: string;
  to?: string;
  out?: string;
  allowLossy?: boolean;
}

const FORMATS = (): readonly string[] => CONVERT_FORMATS;

const isConvertFormat = (value: string): value is ConvertFormat =>
  (CONVERT_FORMATS as readonly string[]).includes(value);

/** Read and run, but not translated: said plainly rather than half done. */
function notConverted(option: string, name: string): CliError {
  return new CliError(
    "USAGE",
    `${option}: ${HOOK_FORMATS[name as keyof typeof HOOK_FORMATS].title} hook files are read and run, but convert does not translate them yet`,
    `convert between ${CONVERT_FORMATS.join(", ")}`,
  );
}

function formatArg(option: string, value: string): ConvertFormat {
  if (isConvertFormat(value)) return value;
  if (Object.hasOwn(HOOK_FORMATS, value)) throw notConverted(option, value);
  throw new CliError(
    "USAGE",
    `${option}: expected one of ${FORMATS().join(", ")}, got ${JSON.stringify(value)}`,
    "name a format this tool reads",
  );
}

/**
 * `a3s-hooks convert --to B [--from A] [FILE] [--out FILE] [--allow-lossy]`: one hook file in
 * another agent's format. What cannot be said faithfully is listed on stderr with its JSON path;
 * then nothing is written (exit 1) unless `--allow-lossy`.
 */
export async function convertCommand(
  file: string | undefined,
  args: ConvertArgs,
  io: CliIo,
): Promise<number> {
  const where = { cwd: resolve(io.cwd, args.cwd ?? "."), home: resolve(io.home ?? homedir()) };
  if (args.to === undefined) {
    throw new CliError("USAGE", "--to: missing", `name the target format: ${FORMATS().join(", ")}`);
  }
  const to = formatArg("--to", args.to);
  let from = args.from === undefined ? undefined : formatArg("--from", args.from);
  let path: string;
  if (file !== undefined) path = resolve(where.cwd, file);
  else {
    if (from === undefined) {
      throw new CliError("USAGE", "name the FILE to convert, or --from for the project's own");
    }
    const place =
      from === "claude-code" ? ".claude/settings.json" : HOOK_FORMATS[from].files.project[0]!;
    if (place.includes("*")) {
      throw new CliError(
        "USAGE",
        `${from} keeps several files (${place}); name the FILE to convert`,
      );
    }
    path = resolve(where.cwd, place);
  }
  // Told by its place, as validate does; a file in no agent's place is ours.
  if (from === undefined) {
    const detected = detectFormat(path)?.name ?? "claude-code";
    if (!isConvertFormat(detected)) throw notConverted("FILE", detected);
    from = detected;
  }
  if (from === to) {
    throw new CliError("USAGE", `--to: the file is already ${to}`, "name another format");
  }
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(
      "USAGE",
      `cannot read ${displayPath(path, where)}: ${(error as Error).message}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  // A format with its own syntax (Codex's config.toml) parses its file; the rest are JSON.
  const own = from === "claude-code" ? undefined : HOOK_FORMATS[from].parse?.(text, path);
  const parsed = own ?? parseJsonText(text);
  if (
    !parsed.ok ||
    parsed.value === null ||
    typeof parsed.value !== "object" ||
    Array.isArray(parsed.value)
  ) {
    throw new CliError(
      "CONFIG",
      parsed.ok
        ? `${displayPath(path, where)}: expected a JSON object`
        : own !== undefined
          ? `${displayPath(path, where)}: ${parsed.message}`
          : `${displayPath(path, where)}: invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`,
    );
  }
  const result = convertHooks(parsed.value as Record<string, unknown>, from, to, path);
  if (result.errors.length > 0) {
    io.stderr.write(
      `${result.errors.map((p) => `error: ${formatProblem(p, where)}`).join("\n")}\nNothing converted: fix the errors first ("a3s-hooks validate --format ${from} FILE" lists them).\n`,
    );
    return 1;
  }
  const shown = displayPath(path, where);
  for (const part of result.lossy)
    io.stderr.write(`lossy: ${shown} ${part.path}: ${part.message}\n`);
  if (result.lossy.length > 0 && !args.allowLossy) {
    io.stderr.write(
      `${result.lossy.length} part(s) cannot be said faithfully in ${to}; nothing written. --allow-lossy writes the nearest translation anyway.\n`,
    );
    return 1;
  }
  const json = `${JSON.stringify(result.doc, null, 2)}\n`;
  if (args.out === undefined) {
    io.stdout.write(json);
    return 0;
  }
  const out = resolve(where.cwd, args.out);
  await mkdir(dirname(out), { recursive: true });
  try {
    // Never over another file: a Gemini settings.json holds far more than hooks.
    await writeFile(out, json, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new CliError(
      "USAGE",
      `--out: ${displayPath(out, where)} exists`,
      "choose another file, or remove it first",
    );
  }
  io.stderr.write(
    `Wrote ${result.hooks} hook(s) in ${to}'s format to ${displayPath(out, where)}.\n`,
  );
  return 0;
}
