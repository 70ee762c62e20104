import { EventEmitter } from 'node:events';

export type WriteCallback = (error?: Error | null) => void;

/**
 * What the CLI's outputs share of a stream's writable side (`write`, `end`, the `drain` and
 * `error` events) without `stream.Writable`, whose module is a millisecond of a start-up that
 * needs no other. A subclass passes each chunk on at once, so nothing waits in it when the
 * process exits.
 */
export abstract class PlainWritable extends EventEmitter implements NodeJS.WritableStream {
  writable = true;

  abstract write(chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean;

  /** Writes the last chunk, if given; the callback runs once what was written before it has gone. */
  end(...args: unknown[]): this {
    const done = args.find((arg): arg is WriteCallback => typeof arg === 'function');
    if (args.length > 0 && typeof args[0] !== 'function') this.write(args[0] as string | Uint8Array, typeof args[1] === 'string' ? (args[1] as BufferEncoding) : undefined);
    this.writable = false;
    if (done) this.write(new Uint8Array(0), () => done());
    return this;
  }
}

/** The callback of a `write(chunk, encoding?, callback?)` call, wherever it stands. */
export function callbackOf(encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): WriteCallback | undefined {
  return typeof encoding === 'function' ? encoding : callback;
}
