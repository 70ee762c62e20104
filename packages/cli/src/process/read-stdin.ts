import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';

/** Where a payload is read from: the stream, and the descriptor behind it when it is the process's own. */
export interface StdinSource {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdinDescriptor?: number;
}

/** Read all of stdin as UTF-8; an input over the cap is an error rather than a silent truncation. */
export async function readStdin(source: StdinSource): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (buffer: Buffer): void => {
    size += buffer.length;
    if (size > READ_LIMITS.stdin) throw new UsageError(`stdin holds more than ${READ_LIMITS.stdin / 1024 / 1024} MB; a hook payload is far smaller`);
    chunks.push(buffer);
  };
  if (!(source.stdinDescriptor !== undefined && readUnopened(source.stdinDescriptor, take))) {
    const stream = source.stdin;
    if (!readWritten(stream, take)) {
      for await (const chunk of stream) take(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Take the process's stdin to its end without opening `process.stdin`: opening it makes a pipe
 * a socket object, which loads Node's network modules, a cost on every hook. A regular file is
 * read as it is. A pipe (on Linux) is opened again, non-blocking, through /proc: a read with
 * nothing written yet fails with EAGAIN instead of waiting, and the stream, under the hook's
 * deadline, reads the rest. False when the end was not reached; what was read is taken.
 */
function readUnopened(fd: number, take: (buffer: Buffer) => void): boolean {
  let kind: 'file' | 'pipe';
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) kind = 'file';
    else if (stat.isFIFO() && process.platform === 'linux') kind = 'pipe';
    else return false;
  } catch {
    return false;
  }
  if (kind === 'file') return readToEnd(fd, take);
  let pipe: number;
  try {
    pipe = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    return readToEnd(pipe, take);
  } finally {
    closeSync(pipe);
  }
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
  return readToEnd(fd, take);
}

// Reads a descriptor that never waits until its end (true) or until a read would wait (false).
function readToEnd(fd: number, take: (buffer: Buffer) => void): boolean {
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
