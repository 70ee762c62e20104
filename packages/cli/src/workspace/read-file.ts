import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';
import { createHash } from './hash.js';

const MiB = 1024 * 1024;

/** A file that exists but is not one the-loop will read; the message says why ("it is a FIFO, not a regular file"). */
export class UnreadableFile extends Error {}

export interface ReadOptions {
  /**
   * The repository the file belongs to. The path must lie inside it, and a symbolic link that
   * leads out of it is refused rather than followed: its target is not the repository's to show.
   */
  readonly within?: string | undefined;
  /** Refuse a file larger than this (default `READ_LIMITS.config`). */
  readonly maxBytes?: number;
  /** The caller has checked that the file's folder lies inside `within` (one check for many files). */
  readonly folderChecked?: boolean;
  /** Refuse a symbolic link even inside the repository (a record the-loop writes is never one). */
  readonly noLinks?: boolean;
  /**
   * The caller listed the file's folder (checked, with `folderChecked`) a moment ago and its entry
   * was a regular file, so no `lstat` comes before the open: the open refuses a link all the same
   * (a link there now is read as any link is), never blocks, and the descriptor is checked.
   */
  readonly listedAsFile?: boolean;
}

export interface TextReadOptions extends ReadOptions {
  /** `strict-utf8` refuses text that is not UTF-8 instead of replacing what cannot be decoded. */
  readonly encoding?: 'utf8' | 'strict-utf8';
}

// Strict: a file read with replacement characters would name paths that do not exist.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The one way the-loop reads a file it did not just write: a regular file only (a FIFO, a
 * device, a socket or a directory is refused without blocking on it), at most `maxBytes`, and
 * with `within`, never through a symbolic link that leads out of the repository. Undefined
 * when there is no such file; anything else that stops the read is an `UnreadableFile`.
 *
 * Its system calls are synchronous: the files are small and read whole, and a warm `report`
 * reads a hundred or more, where each asynchronous call is a round trip through the thread
 * pool that costs more than the call (decision 142). None of them can wait: nothing but a
 * regular file is opened, and the open itself never blocks (`O_NONBLOCK`).
 */
export async function readBytesIfPresent(path: string, options: ReadOptions = {}): Promise<Buffer | undefined> {
  return readChecked(path, options, readOpened);
}

/**
 * {@link readBytesIfPresent}'s SHA-256 of the bytes, with the same refusals, read a chunk at a
 * time through one buffer: a large file (a baseline of a thousand work items) costs no memory of
 * its size, which on a machine where each fresh page is a fault was a few milliseconds of a
 * hook's turn. Undefined when there is no such file.
 */
export async function digestIfPresent(path: string, options: ReadOptions = {}): Promise<string | undefined> {
  return readChecked(path, options, digestOpened);
}

// What is done with a file once it is open and checked: read whole, or digested.
type Consume<T> = (fd: number, maxBytes: number) => T;

async function readChecked<T>(path: string, options: ReadOptions, consume: Consume<T>): Promise<T | undefined> {
  const maxBytes = options.maxBytes ?? READ_LIMITS.config;
  if (options.within !== undefined && escapes(options.within, path)) throw new UnreadableFile('it lies outside the repository');
  if (options.listedAsFile === true && options.folderChecked === true && options.within !== undefined) {
    // A link standing there now is read through the checks every link gets, below.
    const listed = readUnlinked(path, maxBytes, consume);
    if (listed !== A_LINK) return listed;
  }
  let link: Stats | undefined;
  try {
    // Absent is the common answer (a work item with no graph state): no error is built for it.
    link = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UnreadableFile(systemReason(error));
  }
  if (link === undefined) return undefined;
  if (options.noLinks === true && link.isSymbolicLink()) throw new UnreadableFile('it is a symbolic link');
  let target = path;
  let info = link;
  if (options.within !== undefined) {
    if (link.isSymbolicLink() || options.folderChecked !== true) {
      const root = realRoot(options.within);
      target = resolveLink(path, link);
      if (escapes(root, target)) {
        throw new UnreadableFile(`${link.isSymbolicLink() ? 'it is a symbolic link' : 'its folder is reached through a symbolic link'} out of the repository (to ${target})`);
      }
    }
  }
  if (target !== path || link.isSymbolicLink()) {
    try {
      info = statSync(target);
    } catch (error) {
      throw new UnreadableFile(linkReason(error));
    }
  }
  if (!info.isFile()) throw new UnreadableFile(`it is ${kindOf(info)}, not a regular file`);
  if (info.size > maxBytes) throw new UnreadableFile(tooLarge(info.size, maxBytes));
  // O_NONBLOCK: a file swapped for a FIFO after the check cannot hold the open; the descriptor is checked again.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.within !== undefined ? (constants.O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = openSync(target, flags);
  } catch (error) {
    // Removed since the check (a lock released, a file replaced by rename): absent, not unreadable.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UnreadableFile(systemReason(error));
  }
  try {
    return consume(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

const A_LINK = Symbol('a symbolic link');

// A file opened without following a link, checked and read (by default, its bytes): undefined
// when there is none, or A_LINK when the path is a symbolic link.
function readUnlinked<T = Buffer>(path: string, maxBytes: number, consume: Consume<T> = readOpened as Consume<T>): T | undefined | typeof A_LINK {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP') return A_LINK;
    throw new UnreadableFile(systemReason(error));
  }
  try {
    return consume(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

// An open descriptor checked again: a regular file, within the cap.
function checkOpened(fd: number, maxBytes: number): Stats {
  const opened = fstatSync(fd);
  if (!opened.isFile()) throw new UnreadableFile(`it is ${kindOf(opened)}, not a regular file`);
  if (opened.size > maxBytes) throw new UnreadableFile(tooLarge(opened.size, maxBytes));
  return opened;
}

// The buffer every digest reads through, made on the first.
let chunk: Buffer | undefined;

// An open descriptor checked and digested to its end, bounded as a read is: a file that grew
// past the cap since its check is refused all the same.
function digestOpened(fd: number, maxBytes: number): string {
  checkOpened(fd, maxBytes);
  const hash = createHash('sha256');
  const into = (chunk ??= Buffer.allocUnsafe(64 * 1024));
  let total = 0;
  for (let got = readSync(fd, into, 0, into.length, null); got > 0; got = readSync(fd, into, 0, into.length, null)) {
    total += got;
    if (total > maxBytes) throw new UnreadableFile(tooLarge(total, maxBytes, 'over'));
    hash.update(into.subarray(0, got));
  }
  return hash.digest('hex');
}

// An open descriptor checked again (a regular file, within the cap) and read: a first read of the
// size the file says it holds and one byte more, then to the cap's byte. A file that gives exactly
// the size it says it holds has ended there (most do): no second read to see the end.
function readOpened(fd: number, maxBytes: number): Buffer {
  const opened = checkOpened(fd, maxBytes);
  const read = boundedRead(maxBytes);
  const first = read.next(opened.size + 1);
  const got = readSync(fd, first, 0, first.length, null);
  if (read.keep(first, got) && !(opened.size > 0 && got === opened.size)) {
    for (let chunk = read.next(); read.keep(chunk, readSync(fd, chunk, 0, chunk.length, null)); chunk = read.next());
  }
  return read.bytes();
}

// A read to the cap and one byte past it: a file that grew (or reports size 0) is bounded all the same.
function boundedRead(maxBytes: number) {
  const chunks: Buffer[] = [];
  let total = 0;
  return {
    /** A buffer for the next read: `size` bytes (what the file says it holds) or a chunk, never past the cap's byte. */
    next: (size = 64 * 1024): Buffer => Buffer.allocUnsafe(Math.min(size, maxBytes + 1 - total)),
    /** Keep what a read put in `chunk`; false at the end of the file. */
    keep(chunk: Buffer, bytesRead: number): boolean {
      if (bytesRead === 0) return false;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new UnreadableFile(tooLarge(total, maxBytes, 'over'));
      return true;
    },
    // Most files are read in one chunk, which is kept as it is rather than copied.
    bytes: (): Buffer => (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)),
  };
}

/**
 * {@link readBytesIfPresent} for a small record the-loop writes itself and reads on every warm run
 * (a cache entry), in a folder the caller has checked lies inside the repository: a function the
 * caller need not await, and with no symbolic link followed at all (`noLinks`), so the open alone
 * refuses one and no `lstat` comes first. The same refusals: only a regular file, never blocking
 * on a FIFO, at most `maxBytes`.
 */
export function readRecordSync(path: string, maxBytes: number): Buffer | undefined {
  const read = readUnlinked(path, maxBytes);
  if (read === A_LINK) throw new UnreadableFile('it is a symbolic link');
  return read;
}

/** `readBytesIfPresent` as text. */
export async function readIfPresent(path: string, options: TextReadOptions = {}): Promise<string | undefined> {
  const bytes = await readBytesIfPresent(path, options);
  if (bytes === undefined) return undefined;
  if (options.encoding !== 'strict-utf8') return bytes.toString('utf8');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new UnreadableFile('it is not valid UTF-8');
  }
}

/**
 * A repository file a command reads before it does anything (the configuration, the
 * collaborators): its text, or undefined when absent; unreadable is a usage error naming it (exit 2).
 */
export async function readRepositoryFile(path: string, shown: string, options: TextReadOptions): Promise<string | undefined> {
  const bytes = await readRepositoryBytes(path, shown, options);
  if (bytes === undefined) return undefined;
  return options.encoding === 'strict-utf8' ? repositoryText(bytes, shown) : bytes.toString('utf8');
}

/** {@link readRepositoryFile}, its bytes as read. */
export async function readRepositoryBytes(path: string, shown: string, options: ReadOptions): Promise<Buffer | undefined> {
  try {
    return await readBytesIfPresent(path, options);
  } catch (error) {
    throw new UsageError(`cannot read ${shown}: ${(error as Error).message}`);
  }
}

/** Bytes of a repository file as strict UTF-8 text, as {@link readRepositoryFile} reads it under `strict-utf8`. */
export function repositoryText(bytes: Uint8Array, shown: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new UsageError(`cannot read ${shown}: it is not valid UTF-8`);
  }
}

/** Whether `path` lies outside `root` (both absolute, or both relative to the same place). */
export function escapes(root: string, path: string): boolean {
  // Most paths asked about are the root, a separator and names with no `..`: inside, with no
  // resolving of both paths (every file a report reads).
  if (path.length > root.length + 1 && path.startsWith(root) && isSeparator(path.charCodeAt(root.length)) && !path.includes('..', root.length)) return false;
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

function isSeparator(code: number): boolean {
  return code === 0x2f || (sep === '\\' && code === 0x5c);
}

// Where a path really leads, every link on the way resolved.
function resolveLink(path: string, link: Stats): string {
  try {
    return link.isSymbolicLink() ? realpathSync.native(path) : join(realpathSync.native(dirname(path)), basename(path));
  } catch (error) {
    throw new UnreadableFile(linkReason(error));
  }
}

// The repository's own path, links resolved; as given when it cannot be.
function realRoot(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return root;
  }
}

function linkReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'it is a symbolic link to nothing';
  if (code === 'ELOOP') return 'it is a symbolic link loop';
  return systemReason(error);
}

function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory, not a regular file';
  if (code === 'ELOOP') return 'it is a symbolic link loop';
  return (error as Error).message;
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a plain file';
}

function tooLarge(size: number, cap: number, how: 'is' | 'over' = 'is'): string {
  const mb = (n: number) => `${(n / MiB).toFixed(n % MiB === 0 ? 0 : 1)} MB`;
  return `${how === 'is' ? `it is ${mb(size)}` : `it holds more than ${mb(cap)}`}; files over ${mb(cap)} are refused`;
}

/** What is at `path` (a link itself, not what it points to), or undefined when nothing can be found there. */
export function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
