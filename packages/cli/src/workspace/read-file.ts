import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

// Strict: a file read with replacement characters would name paths that do not exist.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The one way to read a file that may not be there: its text, or undefined when there is no
 * such file. Any other failure (a directory, no permission) throws; so does text that is not
 * UTF-8 when `strict`.
 */
export async function readIfPresent(path: string, encoding: 'utf8' | 'strict-utf8' = 'utf8'): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (encoding === 'utf8') return bytes.toString('utf8');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Error('it is not valid UTF-8');
  }
}

/**
 * A repository file a command reads before it does anything (the configuration, the
 * collaborators): its text, or undefined when absent; unreadable is a usage error naming it (exit 2).
 */
export async function readRepositoryFile(path: string, shown: string, encoding: 'utf8' | 'strict-utf8' = 'utf8'): Promise<string | undefined> {
  try {
    return await readIfPresent(path, encoding);
  } catch (error) {
    throw new UsageError(`cannot read ${shown}: ${(error as Error).message}`);
  }
}

/** What reading an untrusted file gave: its bytes, nothing there, or why it was not read. */
export type RegularFile = { readonly bytes: Buffer } | { readonly absent: true } | { readonly refused: string };

/**
 * Read a file nothing vouches for (an evidence record, a lockfile): never through a symbolic
 * link, never blocking on a FIFO or device, never more than `maxBytes`.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFile> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true };
    return { refused: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${(error as Error).message})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { refused: 'it is not a regular file' };
    if (info.size > maxBytes) return { refused: `it is ${info.size} bytes, more than ${maxBytes}` };
    return { bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}
