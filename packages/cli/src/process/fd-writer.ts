import { fstatSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** A writable for the process's own output: what a command prints, and whether a terminal shows it. */
export type Output = NodeJS.WritableStream & { readonly isTTY: boolean };

/**
 * A writable that writes straight to a file descriptor (1 or 2), synchronously, as Node's own
 * streams write to files and pipes. Creating `process.stdout` for a pipe loads Node's socket
 * modules, a few milliseconds on every run, when most commands print once and exit.
 * A descriptor the parent left non-blocking can refuse a write (`EAGAIN`); that write and every
 * later one then go, in order, through the stream `fallback` gives, which waits for the reader.
 * Errors (`EPIPE` when the reader has gone) are the writable's `error` events, as a stream's are.
 */
export function fdWriter(fd: number, fallback: () => NodeJS.WritableStream): Output {
  let handedTo: NodeJS.WritableStream | undefined;
  let tty: boolean | undefined;
  const writable = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (handedTo) {
        handedTo.write(bytes, done);
        return;
      }
      let at = 0;
      try {
        while (at < bytes.length) at += writeSync(fd, bytes, at);
        done();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          handedTo = fallback();
          handedTo.on('error', (failure) => writable.destroy(failure));
          handedTo.write(bytes.subarray(at), done);
        } else if (code === 'EBADF') {
          // A closed descriptor (`2>&-`): Node's own stream drops what is written to it, and so does this.
          done();
        } else {
          done(error as Error);
        }
      }
    },
  });
  Object.defineProperty(writable, 'isTTY', {
    // Only a character device can be a terminal: a pipe or a file never loads the terminal module.
    get: () => (tty ??= isCharacterDevice(fd) && process.getBuiltinModule('node:tty').isatty(fd)),
  });
  return writable as Writable & { readonly isTTY: boolean };
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
