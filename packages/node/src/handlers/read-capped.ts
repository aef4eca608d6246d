/**
 * Read at most `max` bytes of a body (a `fetch` response's or a `node:http` one's); past it,
 * stop reading: leaving the loop cancels the stream, so the rest is never fetched.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  max: number,
): Promise<{ text: string; bytes: number; truncated: boolean }> {
  if (!body) return { text: "", bytes: 0, truncated: false };
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let bytes = 0;
  let truncated = false;
  for await (const value of body) {
    bytes += value.byteLength;
    const room = max - kept;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      kept += room;
      truncated = true;
      break;
    }
    chunks.push(value);
    kept += value.byteLength;
  }
  return { text: Buffer.concat(chunks, kept).toString("utf8"), bytes, truncated };
}
