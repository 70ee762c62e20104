import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readlink, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { mapLimit } from '../workspace/map-limit.js';
import { git, headCommit, notAGitRepository, splitZ } from './git.js';

/** The project's files as git sees them now: each file git does not ignore, by its object id. */
export interface RepositoryFiles {
  readonly objectFormat: 'sha1' | 'sha256';
  /** HEAD, or null before the first commit. */
  readonly commit: string | null;
  /** Path relative to the project root → git object id of its content now (a working-tree edit included). */
  readonly files: ReadonlyMap<string, string>;
  /** Paths whose content differs from the commit, staged or not, and files the commit lacks. */
  readonly changed: ReadonlySet<string>;
}

/**
 * Read the project's files from git: the index gives the object id of every tracked file in
 * one call; only files that differ from the index (edited, untracked, in conflict) are read and
 * hashed here, as git would hash them. Symbolic links are hashed by their target text and
 * never followed; a FIFO or device is named by its kind and never opened. A directory that is
 * not in a git repository is a usage error.
 */
export async function readRepositoryFiles(root: string): Promise<RepositoryFiles> {
  const format = (await gitOrNotARepository(root, ['rev-parse', '--show-object-format'])).toString('utf8').trim();
  if (format !== 'sha1' && format !== 'sha256') throw new UsageError(`git reports an object format the-loop does not know: "${format}"`);
  const head = await headCommit(root);
  const [index, untracked, edited, sinceCommit] = await Promise.all([
    git(root, ['ls-files', '-s', '-z']),
    git(root, ['ls-files', '-z', '--others', '--exclude-standard']),
    git(root, ['diff-files', '--name-only', '-z', '--relative', '--ignore-submodules=none']),
    head ? git(root, ['diff-index', '--name-only', '-z', '--relative', '--no-renames', head]) : Promise.resolve(undefined),
  ]);
  const files = new Map<string, string>();
  const reread = new Set<string>([...splitZ(edited), ...splitZ(untracked)]);
  for (const entry of splitZ(index)) {
    const tab = entry.indexOf('\t');
    const [, id, stage] = entry.slice(0, tab).split(' ');
    const path = entry.slice(tab + 1);
    if (stage !== '0') reread.add(path);
    else if (id) files.set(path, id);
  }
  const hashed = await mapLimit([...reread], 16, async (path) => [path, await objectIdOf(join(root, path), format)] as const);
  for (const [path, id] of hashed) {
    if (id === undefined) files.delete(path);
    else files.set(path, id);
  }
  const changed = sinceCommit ? new Set([...splitZ(sinceCommit), ...splitZ(untracked)]) : new Set(files.keys());
  return { objectFormat: format, commit: head, files, changed };
}

async function gitOrNotARepository(root: string, args: readonly string[]): Promise<Buffer> {
  try {
    return await git(root, args);
  } catch (error) {
    throw notAGitRepository(root, error);
  }
}

// The object id git would give the file's content now; undefined when it is gone.
async function objectIdOf(path: string, format: 'sha1' | 'sha256'): Promise<string | undefined> {
  const blob = (bytes: Buffer) => createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  if (info.isSymbolicLink()) return blob(Buffer.from(await readlink(path), 'utf8'));
  if (info.isDirectory()) return 'directory';
  if (!info.isFile()) return `special:${info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device'}`;
  // O_NONBLOCK: a file swapped for a FIFO after lstat cannot hold the read open.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return 'unreadable';
  try {
    if (!(await handle.stat()).isFile()) return 'special:changed-while-read';
    return blob(await handle.readFile());
  } finally {
    await handle.close();
  }
}
