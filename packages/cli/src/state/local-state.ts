import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseJson } from '@the-loop/core';
import * as v from 'valibot';
import { formatJson } from '../format/json.js';
import { READ_LIMITS } from '../limits.js';
import { escapes, lstatOrNone, readIfPresent } from '../workspace/read-file.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { withLock } from './lock.js';

/**
 * Machine-local state (the stop hooks' no-progress counters, cached verdicts): never committed,
 * never shared between clones. It is a cache an agent can write to, so nothing in it is trusted:
 * what cannot be read is discarded and rebuilt (decision 076), and the gate keeps enforcing.
 */
export const LOCAL_DIR = '.the-loop/local';

// A hook must answer quickly; another hook holding the lock longer than this is stuck.
const LOCK_WAIT_MS = 5_000;

export interface LocalLockOptions {
  /** How long to wait for another holder (default 5 s). */
  readonly timeoutMs?: number;
}

/** Run `fn` holding the local-state lock, so two hooks firing together do not lose an update. */
export async function withLocalLock<T>(root: string, fn: (dir: string) => Promise<T>, options: LocalLockOptions = {}): Promise<T> {
  const dir = await localDir(root);
  return withLock(join(dir, '.lock'), LOCAL_DIR, () => fn(dir), { timeoutMs: options.timeoutMs ?? LOCK_WAIT_MS });
}

/**
 * The machine-local directory (and `sub` inside it), made when missing; returns its path.
 * Anything else at either path (a file, a FIFO, a symbolic link that would send the writes
 * elsewhere) is ours to replace: it is removed, never followed.
 */
export async function localDir(root: string, sub?: string): Promise<string> {
  const dir = join(root, LOCAL_DIR);
  // `.the-loop` itself may be a link: state is never written, nor a folder made, outside the repository.
  let parent: string | undefined;
  try {
    parent = realpathSync.native(dirname(dir));
  } catch {
    parent = undefined;
  }
  if (parent !== undefined && escapes(realpathSync.native(root), parent)) throw new Error(`${dirname(LOCAL_DIR)} leads out of the repository; local state is not kept there`);
  ownFolder(dir);
  // The directory ignores itself, so a repository without the rule in .gitignore never commits it.
  try {
    writeFileSync(join(dir, '.gitignore'), '*\n', { flag: 'wx' });
  } catch {
    // There already, or not writable: the folder is still used.
  }
  if (sub === undefined) return dir;
  ownFolder(join(dir, sub));
  return join(dir, sub);
}

function ownFolder(path: string): void {
  const found = lstatOrNone(path);
  if (found?.isDirectory()) return;
  if (found !== undefined) rmSync(path, { force: true });
  mkdirSync(path, { recursive: true });
}

/**
 * Read a JSON state file: undefined when absent, and also when it cannot be read, is not JSON or
 * is not what the-loop wrote — then `discarded` hears why, and the next write replaces it.
 * `within` is the folder the file must really lie in: `dir` once {@link localDir} has checked
 * it, else the repository (a read that needs no folder made).
 */
export async function readStateFile<S extends v.GenericSchema>(
  dir: string,
  name: string,
  schema: S,
  discarded: (why: string) => void,
  within = dir,
): Promise<v.InferOutput<S> | undefined> {
  let text: string | undefined;
  try {
    text = await readIfPresent(join(dir, name), { within, maxBytes: READ_LIMITS.local });
  } catch (error) {
    discarded(`${LOCAL_DIR}/${name} cannot be read (${(error as Error).message}); discarded, it is rebuilt`);
    return undefined;
  }
  if (text === undefined) return undefined;
  const json = parseJson(text);
  const checked = json.ok ? v.safeParse(schema, json.value) : undefined;
  if (checked?.success) return checked.output;
  discarded(`${LOCAL_DIR}/${name} is not ${json.ok ? 'what the-loop wrote' : 'valid JSON'}; discarded, it is rebuilt`);
  return undefined;
}

/** Write a JSON state file atomically, formatted, over whatever was at its path. */
export async function writeStateFile(dir: string, name: string, value: unknown): Promise<void> {
  const path = join(dir, name);
  // A rename cannot replace a directory; a directory where state belongs is discarded like any bad state.
  if (lstatOrNone(path)?.isDirectory()) rmSync(path, { recursive: true, force: true });
  // Machine-local state is rebuilt when lost: renamed into place whole, but not synced to disk.
  await writeFileAtomic(path, formatJson(value), { durable: false });
}
