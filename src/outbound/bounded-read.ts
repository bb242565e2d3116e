/**
 * An outbound answer read within bounds (request.ts): at most `maxBytes` of the body, the rest
 * cancelled, the beginning decoded as UTF-8, and whether the body went on past `maxBytes` (a
 * caller that needs the whole body refuses a longer one).
 */
export async function boundedRead(response: Response, maxBytes: number): Promise<{ text: string; overflow: boolean }> {
  if (!response.body) return { text: "", overflow: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    // One byte past the bound tells a body of exactly maxBytes from a longer one.
    while (read <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(read, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset >= bytes.length) break;
  }
  return { text: new TextDecoder().decode(bytes), overflow: read > maxBytes };
}
