/** Hook payloads are small; anything past this is not a payload. */
const MAX_STDIN_BYTES = 8 * 1024 * 1024;

/** Read all of stdin as UTF-8; an oversized input is an error rather than a silent truncation. */
export async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new Error(`stdin is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MiB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
