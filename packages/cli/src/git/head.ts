import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readBytesIfPresent, readIfPresent } from '../workspace/read-file.js';

// What HEAD names, read from git's own files without starting git: a hook runs on every agent turn.

// Environment variables that change which repository git finds, or how it reads refs.
const GIT_LOCATION = /^GIT_(?:DIR|WORK_TREE|COMMON_DIR|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|NAMESPACE|REF_FORMAT)$/;
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const REF_NAME = /^refs\/(?:[A-Za-z0-9_][A-Za-z0-9._-]*\/)*[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const SMALL_FILE_BYTES = 4096;
// A packed-refs file larger than this is left to git: reading it would cost more than starting git.
const PACKED_REFS_BYTES = 4 * 1024 * 1024;

/**
 * The branch checked out in the repository containing `dir`, read from HEAD; undefined when
 * HEAD is detached or there is no repository.
 */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const gitDir = await findGitDir(resolve(dir));
  if (!gitDir) return undefined;
  // The git directory may lie outside the project (a worktree); HEAD is still only read if it is a small regular file.
  const head = (await readIfPresent(join(gitDir, 'HEAD')).catch(() => undefined)) ?? '';
  const match = /^ref:\s*refs\/heads\/(.+)$/m.exec(head.trim());
  return match?.[1];
}

/**
 * The commit HEAD names in the repository containing `dir`: HEAD itself when detached, else the
 * branch it names, loose or packed (a worktree's branches are its repository's). Undefined
 * wherever this reading could differ from git's (a `GIT_DIR` or kin in `env`, a reftable, a ref
 * that is a link, anything unexpected or unreadable), and where there is no commit yet: the
 * caller asks git then. A hint for a memo git's own answers filled; it decides nothing alone.
 */
export async function headCommitFromFiles(dir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (Object.keys(env).some((name) => GIT_LOCATION.test(name))) return undefined;
  try {
    const gitDir = await findGitDir(resolve(dir));
    if (gitDir === undefined) return undefined;
    const common = await commonDir(gitDir);
    if (lstatSync(join(common, 'reftable'), { throwIfNoEntry: false }) !== undefined) return undefined;
    const head = await smallFile(join(gitDir, 'HEAD'));
    if (head === undefined) return undefined;
    if (OBJECT_ID.test(head)) return head;
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (ref === undefined || !REF_NAME.test(ref) || ref.includes('..') || ref.endsWith('.lock')) return undefined;
    const loose = await smallFile(join(common, ref));
    if (loose !== undefined) return OBJECT_ID.test(loose) ? loose : undefined;
    return await packedRef(common, ref);
  } catch {
    return undefined;
  }
}

async function findGitDir(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const dotGit = join(current, '.git');
    const info = statIfPresent(dotGit);
    if (info?.isDirectory()) return dotGit;
    if (info?.isFile()) {
      // A worktree or submodule: `.git` is a file naming the real directory.
      const text = (await readIfPresent(dotGit).catch(() => undefined)) ?? '';
      const target = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
      return target ? resolve(current, target) : undefined;
    }
    if (dirname(current) === current) return undefined;
  }
}

// A worktree's folder names its repository's, where the branches are.
async function commonDir(gitDir: string): Promise<string> {
  const named = await smallFile(join(gitDir, 'commondir'));
  if (named === undefined) return gitDir;
  return isAbsolute(named) ? named : resolve(gitDir, named);
}

async function packedRef(common: string, ref: string): Promise<string | undefined> {
  const bytes = await readBytesIfPresent(join(common, 'packed-refs'), { maxBytes: PACKED_REFS_BYTES, noLinks: true });
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8');
  const at = text.indexOf(` ${ref}\n`);
  if (at < 0) return undefined;
  const id = text.slice(text.lastIndexOf('\n', at) + 1, at);
  return OBJECT_ID.test(id) ? id : undefined;
}

// A small file's one line, without its line ending; undefined when absent. A link is refused.
async function smallFile(path: string): Promise<string | undefined> {
  const bytes = await readBytesIfPresent(path, { maxBytes: SMALL_FILE_BYTES, noLinks: true });
  return bytes?.toString('utf8').replace(/\r?\n$/, '');
}

// Synchronous, as the bounded reader's calls are (a Stop hook that finds its work item by the
// branch loads no promise-based file system and waits on no thread); any error reads as absent.
function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
