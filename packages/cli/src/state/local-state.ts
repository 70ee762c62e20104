import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '@the-loop/core';
import * as v from 'valibot';
import { formatJson } from '../format/json.js';
import { readIfPresent } from '../workspace/read-file.js';
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

/** Read a JSON state file: undefined when absent; not JSON or off its schema is an error naming the file. */
export async function readStateFile<S extends v.GenericSchema>(dir: string, name: string, schema: S): Promise<v.InferOutput<S> | undefined> {
  const text = await readIfPresent(join(dir, name));
  if (text === undefined) return undefined;
  const json = parseJson(text);
  const checked = json.ok ? v.safeParse(schema, json.value) : undefined;
  if (!checked?.success) throw new Error(`${LOCAL_DIR}/${name} is not ${json.ok ? 'what the-loop wrote' : 'valid JSON'}; delete it to start afresh`);
  return checked.output;
}

/** Write a JSON state file atomically, formatted. */
export async function writeStateFile(dir: string, name: string, value: unknown): Promise<void> {
  await writeFileAtomic(join(dir, name), formatJson(value));
}
