import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Machine-local state (counters, escalations): never committed, never shared between clones. */
export const LOCAL_DIR = '.the-loop/local';

const LOCK_WAIT_MS = 5_000;
// A lock older than this was left by a process that died; hooks finish in well under a second.
const STALE_LOCK_MS = 30_000;

/** Write a file so a reader sees the old or the new content, never half of it. */
export async function writeFileAtomic(path: string, text: string, mode?: number): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temp, text, mode !== undefined ? { mode } : {});
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Run `fn` holding the local-state lock, so two hooks firing together do not lose an update. */
export async function withLocalLock<T>(root: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(root, LOCAL_DIR);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => {});
  const lock = join(dir, '.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(lock).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${LOCAL_DIR}/.lock is held by another process; gave up after ${LOCK_WAIT_MS / 1000}s`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    return await fn(dir);
  } finally {
    await rm(lock, { force: true });
  }
}

/** Read a JSON state file; absent is `fallback`, unparseable is an error naming the file. */
export async function readStateFile<T>(dir: string, name: string, fallback: T): Promise<T> {
  let text: string;
  try {
    text = await readFile(join(dir, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${LOCAL_DIR}/${name} is not valid JSON; delete it to start afresh`);
  }
}

/** Write a JSON state file atomically, formatted. */
export async function writeStateFile(dir: string, name: string, value: unknown): Promise<void> {
  await writeFileAtomic(join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
}
