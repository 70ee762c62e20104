import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// The files written here are small (state, records, configuration): Node's synchronous calls
// write them without starting libuv's threads or loading the file system's promise API, which a
// hook that records a blocked stop paid on every turn.

/**
 * A temporary file's path beside `path`, for a write that is renamed or linked over it. Every such
 * file is created exclusively (`wx`), so a name already taken, or a link planted at it, fails the
 * write instead of being followed: the random part only keeps two writers apart, and needs no
 * `node:crypto`, whose loading cost a hook 3 to 5 ms.
 */
export function tempPathBeside(path: string): string {
  const random = Math.floor(Math.random() * 2 ** 48).toString(16).padStart(12, '0');
  return join(dirname(path), `.${basename(path)}.${process.pid}.${random}.tmp`);
}

export interface AtomicWriteOptions {
  /** The file's mode when it is created (default 0o644). */
  readonly mode?: number;
  /**
   * Whether the new contents must survive a power cut (the default): the file and its folder are
   * synced to disk, about 1.5 ms. State a run can lose and rebuild (machine-local counters) is
   * written without: a reader still sees the old contents or the new, never a part.
   */
  readonly durable?: boolean;
}

/**
 * Replace a file so a reader (or a crash) only ever sees the old or the new contents:
 * write a temp file in the same directory, fsync it, rename it over the target, then fsync
 * the directory so the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, contents: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const { mode = 0o644, durable = true } = options;
  const dir = dirname(path);
  const temp = tempPathBeside(path);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeAll(fd, contents);
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeQuietly(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (durable) syncDirectory(dir);
}

/**
 * Create a file that does not exist yet, whole or not at all; a file already there is never
 * replaced (false). The contents are written beside it first and hard-linked into place.
 */
export async function createFileAtomic(path: string, contents: string | Uint8Array): Promise<boolean> {
  const dir = dirname(path);
  const temp = tempPathBeside(path);
  const fd = openSync(temp, 'wx', 0o644);
  let open = true;
  try {
    writeAll(fd, contents);
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    try {
      linkSync(temp, path);
    } catch (error) {
      // A file system without hard links: an exclusive create still never replaces a file.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
      writeFileSync(path, contents, { flag: 'wx' });
    }
  } catch (error) {
    if (open) closeQuietly(fd);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  syncDirectory(dir);
  return true;
}

function writeAll(fd: number, contents: string | Uint8Array): void {
  const bytes = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already, or the descriptor is gone: nothing more to release.
  }
}

function syncDirectory(dir: string): void {
  // Some platforms cannot open a directory for fsync; the rename is still atomic there.
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL/EPERM on file systems without directory fsync.
  } finally {
    closeSync(fd);
  }
}
