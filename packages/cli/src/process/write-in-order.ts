/**
 * Write texts (or their bytes) to `out` one after the other, waiting for a slow reader (a pipe) whenever the
 * stream says it is full: output of any size is never all in the stream's buffer at once.
 */
export async function writeInOrder(out: NodeJS.WritableStream, texts: Iterable<string | Uint8Array>): Promise<void> {
  for (const text of texts) {
    if (text.length > 0 && !out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  }
}
