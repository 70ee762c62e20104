import { isUtf8 } from 'node:buffer';
import type { StringDecoder } from 'node:string_decoder';
import { callbackOf, PlainWritable, type WriteCallback } from '../process/plain-writable.js';

// What a terminal (or a log viewer) acts on instead of showing: the C0 controls but tab and
// newline, DEL, the C1 controls (U+009B is a one-character CSI), and the bidirectional
// overrides and isolates that make a line read differently from what it holds.
const UNSAFE = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE_CHARS = new RegExp(`[${UNSAFE}]`, 'g');
// A colour sequence of the kind the-loop itself writes (SGR: ESC [ digits ; m), kept where colour is on.
const COLOR_OR_UNSAFE = new RegExp(`(\\u001b\\[[0-9;]*m)|[${UNSAFE}]`, 'g');

// The same characters as UTF-8 bytes, in a Latin-1 view of them (one character a byte): bytes
// that match none hold none of them, and pass on as they are.
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const UNSAFE_UTF8 = /[\u0000-\u0008\u000b-\u001f\u007f]|\u00c2[\u0080-\u009f]|\u00d8\u009c|\u00e2\u0080[\u008e\u008f\u00aa-\u00ae]|\u00e2\u0081[\u00a6-\u00a9]/;

/** Whether UTF-8 `bytes` hold a character {@link neutralize} would escape. */
export function holdsUnsafeBytes(bytes: Uint8Array): boolean {
  return UNSAFE_UTF8.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

function escaped(char: string): string {
  return `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, '0')}`;
}

/**
 * Text from a repository, a critic or a payload made safe to show: every control character
 * becomes its visible `\uXXXX` escape. Inside a JSON string that escape is the same value, so a
 * JSON document passed through it parses to exactly what it was.
 */
export function neutralize(text: string): string {
  return text.replace(UNSAFE_CHARS, escaped);
}

/**
 * `target` with every write neutralised: how stdout and stderr reach people. With `colors`,
 * colour sequences pass (an artifact can at most colour its own text); nothing else does.
 */
export function neutralizing<T extends NodeJS.WritableStream & { isTTY?: boolean }>(target: T, colors: boolean): NodeJS.WritableStream & { isTTY?: boolean } {
  return new Neutralizing(target, colors);
}

class Neutralizing extends PlainWritable {
  readonly isTTY: boolean;
  // Bytes written (a child's output passed on) are decoded across chunks; most runs write only
  // text, and never load the decoder's module.
  private decoder: StringDecoder | undefined;
  // Whether the target's buffer is full: its backpressure is the wrapper's, so a writer that
  // waits for 'drain' (report, over any number of work items) never has its output held whole
  // in memory when stdout is a pipe read slowly.
  private full = false;

  constructor(
    private readonly target: NodeJS.WritableStream,
    private readonly colors: boolean,
  ) {
    super();
    this.isTTY = (target as { isTTY?: boolean }).isTTY === true;
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    const done = callbackOf(encoding, callback);
    const safe = typeof chunk === 'string' ? this.safe(chunk) : this.safeBytes(chunk);
    if (safe.length > 0 && !this.target.write(safe) && !this.full) {
      this.full = true;
      this.target.once('drain', () => {
        this.full = false;
        this.emit('drain');
      });
    }
    if (done) process.nextTick(done);
    return !this.full;
  }

  // Bytes that are whole UTF-8 and hold nothing to escape go on as they are (a report's items read
  // back from its spool, megabytes of them): decoding them, searching the text and encoding it
  // again changed nothing. Anything else is text through the decoder, which keeps a character
  // split between writes; once it holds a part of one, every later write goes through it too.
  private safeBytes(bytes: Uint8Array): string | Uint8Array {
    if (this.decoder === undefined && isUtf8(bytes) && !holdsUnsafeBytes(bytes)) return bytes;
    return this.safe((this.decoder ??= new (process.getBuiltinModule('node:string_decoder').StringDecoder)('utf8')).write(bytes));
  }

  private safe(text: string): string {
    return this.colors ? text.replace(COLOR_OR_UNSAFE, (match, color: string | undefined) => color ?? escaped(match)) : neutralize(text);
  }
}
