import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replace a file so a reader (or a crash) only ever sees the old or the new contents:
 * write a temp file in the same directory, fsync it, rename it over the target, then fsync
 * the directory so the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, contents: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/**
 * Create a file that does not exist yet, whole or not at all; a file already there is never
 * replaced (false). The contents are written beside it first and hard-linked into place.
 */
export async function createFileAtomic(path: string, contents: string | Uint8Array): Promise<boolean> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(contents);
    await handle.sync();
    await handle.close();
    await fs.link(temp, path).catch(async (error: NodeJS.ErrnoException) => {
      // A file system without hard links: an exclusive create still never replaces a file.
      if (error.code !== 'EPERM' && error.code !== 'ENOTSUP' && error.code !== 'ENOSYS') throw error;
      await fs.writeFile(path, contents, { flag: 'wx' });
    });
  } catch (error) {
    await handle.close().catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
  await syncDirectory(dir);
  return true;
}

async function syncDirectory(dir: string): Promise<void> {
  // Some platforms cannot open a directory for fsync; the rename is still atomic there.
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // EINVAL/EPERM on file systems without directory fsync.
  } finally {
    await handle.close();
  }
}
