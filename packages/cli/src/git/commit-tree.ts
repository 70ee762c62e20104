import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git, readObjects, splitZ } from './git.js';

interface TreeEntry {
  readonly mode: string;
  readonly sha: string;
  readonly path: string;
}

/**
 * Write the files under `paths` as they are in `commit` into `target`, so a gate can judge
 * what is pushed rather than what happens to be in the working tree. Git's object database
 * is read directly; the index and the working tree are not touched.
 */
export async function materializeCommitPaths(root: string, commit: string, paths: readonly string[], target: string): Promise<number> {
  if (paths.length === 0) return 0;
  const entries = splitZ(await git(root, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...paths]))
    .map(parseEntry)
    .filter((e): e is TreeEntry => e !== undefined && !e.path.split('/').includes('..'));
  if (entries.length === 0) return 0;
  const blobs = await readBlobs(root, entries.map((e) => e.sha));
  for (const entry of entries) {
    const content = blobs.get(entry.sha);
    if (content === undefined) throw new Error(`git object ${entry.sha} (${entry.path}) is missing`);
    const file = join(target, ...entry.path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    if (entry.mode === '120000') await symlink(content.toString('utf8'), file);
    else await writeFile(file, content);
  }
  return entries.length;
}

// `<mode> <type> <sha>\t<path>`; submodules (commits) carry no files to check.
function parseEntry(line: string): TreeEntry | undefined {
  const tab = line.indexOf('\t');
  const [mode, type, sha] = line.slice(0, tab).split(' ');
  if (type !== 'blob' || !mode || !sha) return undefined;
  return { mode, sha, path: line.slice(tab + 1) };
}

async function readBlobs(root: string, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(shas)];
  const contents = await readObjects(root, unique);
  const blobs = new Map<string, Buffer>();
  unique.forEach((sha, i) => {
    const content = contents[i];
    if (content !== undefined) blobs.set(sha, content);
  });
  return blobs;
}
