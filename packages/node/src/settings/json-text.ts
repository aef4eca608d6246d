/** The result of parsing JSON text: the value, or where and why it is invalid. */
export type JsonParseResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number; offset: number };

/**
 * Parse JSON, and when it is invalid say where: `JSON.parse` in Node 20 does not always give
 * a position, so a small strict scanner finds the first fault. A leading BOM is ignored.
 */
export function parseJsonText(source: string): JsonParseResult {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const found = locateJsonError(text) ?? {
      offset: text.length,
      message: (error as Error).message,
    };
    return { ok: false, ...found, ...lineAndColumn(text, found.offset) };
  }
}

/** The 1-based line and column of an offset into `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

function show(c: string | undefined): string {
  return c === undefined ? "end of file" : JSON.stringify(c);
}

/** The first syntax error in `text`, or undefined when it is valid JSON. Iterative: no stack overflow. */
export function locateJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const stack: ("{" | "[")[] = [];
  const fail = (message: string, at = i) => ({ offset: at, message });
  const ws = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") i++;
      else break;
    }
  };
  const string = (): { offset: number; message: string } | undefined => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return fail("invalid \\u escape in a string");
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else return fail(`invalid escape \\${e ?? ""} in a string`);
        continue;
      }
      if (c.charCodeAt(0) < 0x20)
        return fail("a raw control character (or line break) in a string");
      i++;
    }
    return fail("a string is not closed", start);
  };
  // One value, then what may follow it, until the text ends.
  let wantValue = true;
  let afterComma = false;
  for (;;) {
    ws();
    const c = text[i];
    if (wantValue) {
      const commaBefore = afterComma;
      afterComma = false;
      if (c === "{" || c === "[") {
        stack.push(c);
        i++;
        ws();
        const close = c === "{" ? "}" : "]";
        if (text[i] === close) {
          stack.pop();
          i++;
          wantValue = false;
          continue;
        }
        if (c === "{") {
          if (text[i] !== '"')
            return fail(`expected a property name in double quotes, got ${show(text[i])}`);
          const bad = string();
          if (bad) return bad;
          ws();
          if (text[i] !== ":")
            return fail(`expected ":" after a property name, got ${show(text[i])}`);
          i++;
        }
        continue;
      }
      if (c === '"') {
        const bad = string();
        if (bad) return bad;
      } else if (c === "t" || c === "f" || c === "n") {
        const word = c === "t" ? "true" : c === "f" ? "false" : "null";
        if (!text.startsWith(word, i)) return fail(`unexpected ${show(c)}; expected a value`);
        i += word.length;
      } else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m) return fail("invalid number");
        i += m[0].length;
      } else if (c === "/") {
        return fail("comments are not allowed in JSON");
      } else if (c === "}" || c === "]") {
        return fail(
          commaBefore
            ? `unexpected ${show(c)}; a trailing comma is not allowed in JSON`
            : `unexpected ${show(c)}; expected a value`,
        );
      } else {
        return fail(
          c === undefined ? "unexpected end of file" : `unexpected ${show(c)}; expected a value`,
        );
      }
      wantValue = false;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) {
      return c === undefined
        ? undefined
        : fail(`unexpected ${show(c)} after the end of the JSON value`);
    }
    const close = top === "{" ? "}" : "]";
    if (c === close) {
      stack.pop();
      i++;
      continue;
    }
    if (c !== ",") {
      return fail(`expected "," or "${close}", got ${show(c)}`);
    }
    i++;
    wantValue = true;
    afterComma = true;
    if (top === "{") {
      ws();
      if (text[i] === "}") return fail('unexpected "}"; a trailing comma is not allowed in JSON');
      if (text[i] !== '"')
        return fail(`expected a property name in double quotes, got ${show(text[i])}`);
      const bad = string();
      if (bad) return bad;
      ws();
      if (text[i] !== ":") return fail(`expected ":" after a property name, got ${show(text[i])}`);
      i++;
    }
  }
}

/**
 * JSON with every object's keys sorted, at any depth: equal values give the same text whatever
 * order their keys were written in (for hashes and identity keys, where formatting must not
 * count).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
