import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { createHash } from '../workspace/hash.js';
import { mapLimit } from '../workspace/map-limit.js';
import { readBytesIfPresent } from '../workspace/read-file.js';
import { git, headCommit, notAGitRepository, splitZ } from './git.js';

/** The project's files as git sees them now: each file git does not ignore, by its object id. */
export interface RepositoryFiles {
  readonly objectFormat: 'sha1' | 'sha256';
  /** Path relative to the project root → git object id of its content now (a working-tree edit included). */
  readonly files: ReadonlyMap<string, string>;
  /** Files git does not track and does not ignore. */
  readonly untracked: ReadonlySet<string>;
}

/**
 * Read the project's files from git: one `ls-files` call gives the object id of every tracked
 * file from the index, tags the files that differ from it (edited, deleted, in conflict), and
 * lists the untracked files git does not ignore; only those are read and hashed here, as git
 * would hash them. One git process: judging evidence on every hook turn stays cheap. Symbolic
 * links are hashed by their target text and never followed; a FIFO or device is named by its
 * kind and never opened. A directory that is not in a git repository is a usage error.
 */
export async function readRepositoryFiles(root: string): Promise<RepositoryFiles> {
  // `-t` tags each line: `H` a cached file, `C` one that differs from the index (listed again,
  // by `-m`), `M` a conflict stage, `?` an untracked file (by `-o`, which `-s` does not change).
  const listing = await gitOrNotARepository(root, ['ls-files', '-z', '-t', '-s', '-m', '-o', '--exclude-standard']);
  const files = new Map<string, string>();
  const untracked = new Set<string>();
  const reread = new Set<string>();
  let idLength = 0;
  for (const entry of splitZ(listing)) {
    const tag = entry.slice(0, 1);
    if (tag === '?') {
      const path = entry.slice(2);
      untracked.add(path);
      reread.add(path);
      continue;
    }
    const tab = entry.indexOf('\t');
    const [, , id, stage] = entry.slice(0, tab).split(' ');
    const path = entry.slice(tab + 1);
    if (id) idLength = id.length;
    if (stage !== '0' || tag === 'C') reread.add(path);
    else if (id) files.set(path, id);
  }
  // The ids in the index say which hash the repository uses; an empty index has to ask.
  const format = idLength === 64 ? 'sha256' : idLength === 40 ? 'sha1' : (await git(root, ['rev-parse', '--show-object-format'])).toString('utf8').trim();
  if (format !== 'sha1' && format !== 'sha256') throw new UsageError(`git reports an object format the-loop does not know: "${format}"`);
  const hashed = await mapLimit([...reread], 16, async (path) => [path, await objectIdOf(join(root, path), format)] as const);
  for (const [path, id] of hashed) {
    if (id === undefined) files.delete(path);
    else files.set(path, id);
  }
  return { objectFormat: format, files, untracked };
}

/** HEAD, and the files whose content differs from it (staged or not) or that it lacks: what a run saw. */
export async function readCommitState(root: string, snapshot: RepositoryFiles): Promise<{ commit: string | null; changed: ReadonlySet<string> }> {
  const commit = await headCommit(root);
  if (!commit) return { commit, changed: new Set(snapshot.files.keys()) };
  const sinceCommit = await git(root, ['diff-index', '--name-only', '-z', '--relative', '--no-renames', commit]);
  return { commit, changed: new Set([...splitZ(sinceCommit), ...snapshot.untracked]) };
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
  const info = await fs.lstat(path).catch(() => undefined);
  if (!info) return undefined;
  if (info.isSymbolicLink()) return blob(Buffer.from(await fs.readlink(path), 'utf8'));
  if (info.isDirectory()) return 'directory';
  if (!info.isFile()) return `special:${info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device'}`;
  try {
    const bytes = await readBytesIfPresent(path, { maxBytes: Number.MAX_SAFE_INTEGER, noLinks: true });
    return bytes === undefined ? undefined : blob(bytes);
  } catch (error) {
    return `unreadable:${(error as Error).message}`;
  }
}
