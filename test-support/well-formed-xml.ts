/**
 * Enough of an XML parser to refuse what a browser would refuse in an SVG file: unbalanced or
 * crossed tags, an unquoted attribute, a bare `&` or `<` in text. Throws naming the first fault.
 */
export function assertWellFormedXml(xml: string): void {
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  let end = 0;
  for (let m = token.exec(xml); m !== null; m = token.exec(xml)) {
    end = token.lastIndex;
    const [, closing, name, , selfClosing, text] = m;
    if (text !== undefined) {
      const bare = /[&<>]/.exec(text.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, ""));
      if (bare)
        throw new Error(`unescaped ${bare[0]} in text ${JSON.stringify(text.slice(0, 60))}`);
    } else if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? "nothing"}>`);
    } else if (!selfClosing) {
      stack.push(name!);
    }
  }
  if (end !== xml.length) {
    throw new Error(`not XML at ${JSON.stringify(xml.slice(end, end + 40))}`);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("> <")}>`);
}
