import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { withLock } from './lock.js';

/** Machine-local state (the stop hooks' no-progress counters): never committed, never shared between clones. */
export const LOCAL_DIR = '.the-loop/local';

// A hook must answer quickly; another hook holding the lock longer than this is stuck.
const LOCK_WAIT_MS = 5_000;

/** The machine-local directory (and `sub` inside it), created when absent; returns its path. */
export async function localDir(root: string, sub?: string): Promise<string> {
  const dir = join(root, LOCAL_DIR);
  await mkdir(sub === undefined ? dir : join(dir, sub), { recursive: true });
  // The directory ignores itself, so a repository without the rule in .gitignore never commits it.
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => {});
  return sub === undefined ? dir : join(dir, sub);
}

/** Run `fn` holding the local-state lock, so two hooks firing together do not lose an update. */
export async function withLocalLock<T>(root: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await localDir(root);
  return withLock(join(dir, '.lock'), LOCAL_DIR, () => fn(dir), { timeoutMs: LOCK_WAIT_MS });
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
