import { fstatSync, writeSync } from 'node:fs';
import { nodeBinding } from './node-binding.js';
import { callbackOf, PlainWritable, type WriteCallback } from './plain-writable.js';

/** A writable for the process's own output: what a command prints, and whether a terminal shows it. */
export type Output = NodeJS.WritableStream & { readonly isTTY: boolean };

/** One of the process's own outputs, which says when what was written to it has gone out. */
export type ProcessOutput = Output & {
  /**
   * Settles once everything written has reached the descriptor: at once, since each write is,
   * unless the descriptor refused one and the stream it went to may still hold some. (An empty
   * write through the stream for every output took each run's first pass through Node's tick
   * queue, about 0.25 ms.)
   */
  settled(): Promise<void>;
};

/**
 * A writable that writes straight to a file descriptor (1 or 2), synchronously, as Node's own
 * streams write to files and pipes. Creating `process.stdout` for a pipe loads Node's socket
 * modules, a few milliseconds on every run, when most commands print once and exit.
 * A descriptor the parent left non-blocking can refuse a write (`EAGAIN`); that write and every
 * later one then go, in order, through the stream `fallback` gives, which waits for the reader
 * (its backpressure and `drain` are this writer's). Errors (`EPIPE` when the reader has gone)
 * are `error` events, emitted once, as a stream's are; a write after one fails with it.
 */
export function fdWriter(fd: number, fallback: () => NodeJS.WritableStream): ProcessOutput {
  return new FdOutput(fd, fallback);
}

class FdOutput extends PlainWritable implements ProcessOutput {
  private handedTo: NodeJS.WritableStream | undefined;
  private failed: Error | undefined;
  private tty: boolean | undefined;

  constructor(
    private readonly fd: number,
    private readonly fallback: () => NodeJS.WritableStream,
  ) {
    super();
  }

  get isTTY(): boolean {
    // Only a character device can be a terminal: a pipe or a file is asked nothing more.
    return (this.tty ??= isCharacterDevice(this.fd) && isTerminal(this.fd));
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    const done = callbackOf(encoding, callback);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
    if (this.failed) return this.fail(this.failed, done, false);
    if (this.handedTo) return this.handedTo.write(bytes, done);
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(this.fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        const handedTo = (this.handedTo = this.fallback());
        handedTo.on('error', (failure: Error) => this.fail(failure, undefined, !this.failed));
        handedTo.on('drain', () => this.emit('drain'));
        return handedTo.write(bytes.subarray(at), done);
      }
      // A closed descriptor (`2>&-`): Node's own stream drops what is written to it, and so does this.
      if (code !== 'EBADF') return this.fail(error as Error, done, true);
    }
    if (done) process.nextTick(done);
    return true;
  }

  settled(): Promise<void> {
    // After a failure nothing more goes out: there is nothing to wait for.
    const stream = this.failed ? undefined : this.handedTo;
    return stream === undefined ? Promise.resolve() : new Promise((resolve) => stream.write(Buffer.alloc(0), () => resolve()));
  }

  // Reported after the write returns, as a stream reports it; the event only for the first error.
  private fail(error: Error, done: WriteCallback | undefined, emit: boolean): false {
    this.failed ??= error;
    process.nextTick(() => {
      done?.(error);
      if (emit) this.emit('error', error);
    });
    return false;
  }
}

/**
 * Whether a descriptor is a terminal, asked through the binding `node:tty` is built on: the module
 * loads Node's socket and stream modules, 3 to 4 ms of a run whose output goes to /dev/null, a
 * character device that is no terminal. Through the module where the binding is not reached.
 */
function isTerminal(fd: number): boolean {
  const isTTY = nodeBinding('tty_wrap', ['20', '22', '24'])?.['isTTY'];
  return typeof isTTY === 'function' ? (isTTY as (fd: number) => boolean)(fd) === true : process.getBuiltinModule('node:tty').isatty(fd);
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
