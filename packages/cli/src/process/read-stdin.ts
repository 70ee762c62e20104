import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';

/** Read all of stdin as UTF-8; an input over the cap is an error rather than a silent truncation. */
export async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > READ_LIMITS.stdin) throw new UsageError(`stdin holds more than ${READ_LIMITS.stdin / 1024 / 1024} MB; a hook payload is far smaller`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
