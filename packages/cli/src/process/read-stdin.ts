import { fstatSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';
import { nodeBinding } from './node-binding.js';

/** Read all of stdin as UTF-8; an input over the cap is an error rather than a silent truncation. */
export async function readStdin(env: { readonly stdin: NodeJS.ReadableStream; readonly stdinFd?: number }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (buffer: Buffer): void => {
    size += buffer.length;
    if (size > READ_LIMITS.stdin) throw new UsageError(`stdin holds more than ${READ_LIMITS.stdin / 1024 / 1024} MB; a hook payload is far smaller`);
    chunks.push(buffer);
  };
  // The process's own descriptor, read before its stream is made; else the stream's, if it has one.
  const own = env.stdinFd;
  let stream: NodeJS.ReadableStream | undefined;
  const fd = own ?? ((stream = env.stdin) as { fd?: unknown }).fd;
  if (typeof fd !== 'number' || !readWritten(fd, own !== undefined, take)) {
    for await (const chunk of (stream ??= env.stdin)) take(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Take what the writer has already written to stdin without a turn of the event loop (a
 * harness has usually written the whole payload by the time it is read): true when that
 * reached the end. A pipe or socket read this way never waits: it is non-blocking (Node's
 * stream makes it so, and so does {@link nonBlocking} for the process's own descriptor), so a
 * read with nothing written yet fails with EAGAIN and the stream, under the hook's deadline,
 * reads the rest. A regular file never waits; a terminal or a device (and a pipe on Windows) is
 * left to the stream.
 */
function readWritten(fd: number, own: boolean, take: (buffer: Buffer) => void): boolean {
  try {
    const stat = fstatSync(fd);
    // Windows leaves a pipe blocking, so there only a regular file is read this way.
    const pipe = (stat.isFIFO() || stat.isSocket()) && process.platform !== 'win32';
    if (!pipe && !stat.isFile()) return false;
    if (pipe && own && !nonBlocking(fd)) return false;
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

// libuv's pipe handle, held for the life of the process (Node holds an open handle too): closing
// it would close stdin.
let _stdinHandle: unknown;

/**
 * Put the process's own pipe or socket descriptor in non-blocking mode, as making
 * `process.stdin` would, without loading Node's stream and socket modules (about 3 ms of every
 * hook's turn, decision 194): a libuv pipe handle opened on it and never started, so the stream
 * can still take the descriptor over for what is not written yet. Through the binding Node's
 * own `net` uses, on the versions whose binding was checked; false elsewhere, and the stream is
 * made as before.
 */
function nonBlocking(fd: number): boolean {
  const binding = nodeBinding('pipe_wrap', ['20', '22', '24']) as { Pipe?: unknown; constants?: { SOCKET?: unknown } } | undefined;
  const Pipe = binding?.Pipe;
  const socket = binding?.constants?.SOCKET;
  if (typeof Pipe !== 'function' || typeof socket !== 'number') return false;
  try {
    const handle = new (Pipe as new (type: number) => { open(fd: number): number; unref?(): void })(socket);
    handle.unref?.();
    if (handle.open(fd) !== 0) return false;
    _stdinHandle = handle;
    return true;
  } catch {
    return false;
  }
}
