import { fstatSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';

/** Read all of stdin as UTF-8; an input over the cap is an error rather than a silent truncation. */
export async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (buffer: Buffer): void => {
    size += buffer.length;
    if (size > READ_LIMITS.stdin) throw new UsageError(`stdin holds more than ${READ_LIMITS.stdin / 1024 / 1024} MB; a hook payload is far smaller`);
    chunks.push(buffer);
  };
  if (!readWritten(stream, take)) {
    for await (const chunk of stream) take(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Take what the writer has already written to stdin without a turn of the event loop (a
 * harness has usually written the whole payload by the time it is read): true when that
 * reached the end. A pipe or socket read this way never waits: Node puts the descriptor in
 * non-blocking mode when it opens stdin, so a read with nothing written yet fails with EAGAIN
 * and the stream, under the hook's deadline, reads the rest. A regular file never waits; a
 * terminal or a device (and a pipe on Windows) is left to the stream.
 */
function readWritten(stream: NodeJS.ReadableStream, take: (buffer: Buffer) => void): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return false;
  try {
    const stat = fstatSync(fd);
    // Windows leaves a pipe blocking, so there only a regular file is read this way.
    const pipe = (stat.isFIFO() || stat.isSocket()) && process.platform !== 'win32';
    if (!pipe && !stat.isFile()) return false;
  } catch {
    return false;
  }
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
      throw error;
    }
    if (read === 0) return true;
    take(Buffer.from(buffer.subarray(0, read)));
  }
}
