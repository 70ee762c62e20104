// The project's files as evidence binds them, read from a real git repository: object ids equal
// to git's own for edited and untracked files, ignored files left out, links and FIFOs never followed.
import { spawnSync } from 'node:child_process';
import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo } from '../test-support/cli.js';
import { readCommitState, readRepositoryFiles } from './repository-files.js';

async function repo(): Promise<string> {
  const dir = await makeRepo({ '.gitignore': 'build/\n', 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'build/out.js': 'built\n' });
  await symlink('src/a.ts', join(dir, 'link-to-a'));
  await git(dir, ['init', '-q']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-qm', 'first']);
  return dir;
}

const hashObject = async (dir: string, path: string) => (await git(dir, ['hash-object', '--', path])).trim();

describe('readRepositoryFiles', () => {
  it('names every file git does not ignore by its object id, with the commit, and nothing changed after a commit', async () => {
    const dir = await repo();
    const files = await readRepositoryFiles(dir);
    expect([...files.files.keys()].sort()).toEqual(['.gitignore', 'link-to-a', 'src/a.ts', 'src/b.ts']);
    expect(files.files.get('src/a.ts')).toBe(await hashObject(dir, 'src/a.ts'));
    expect(files.objectFormat).toBe('sha1');
    expect(await readCommitState(dir, files)).toEqual({ commit: (await git(dir, ['rev-parse', 'HEAD'])).trim(), changed: new Set() });
  });

  it('hashes an edited file, an untracked one and a re-pointed link as git would, and drops a deleted one', async () => {
    const dir = await repo();
    await writeFile(join(dir, 'src/a.ts'), 'export const a = 3;\n');
    await writeFile(join(dir, 'src/c.ts'), 'export const c = 4;\n');
    await rm(join(dir, 'link-to-a'));
    await symlink('src/b.ts', join(dir, 'link-to-a'));
    await rm(join(dir, 'src/b.ts'));
    const files = await readRepositoryFiles(dir);
    expect(files.files.get('src/a.ts')).toBe(await hashObject(dir, 'src/a.ts'));
    expect(files.files.get('src/c.ts')).toBe(await hashObject(dir, 'src/c.ts'));
    const link = spawnSync('git', ['hash-object', '--stdin'], { input: 'src/b.ts', encoding: 'utf8' }).stdout.trim();
    expect(files.files.get('link-to-a')).toBe(link);
    expect(files.files.has('src/b.ts')).toBe(false);
    expect([...(await readCommitState(dir, files)).changed].sort()).toEqual(['link-to-a', 'src/a.ts', 'src/b.ts', 'src/c.ts']);
  });

  it('never opens a FIFO that took a tracked file\'s place', async () => {
    const dir = await repo();
    await rm(join(dir, 'src/a.ts'));
    expect(spawnSync('mkfifo', [join(dir, 'src/a.ts')]).status).toBe(0);
    const files = await readRepositoryFiles(dir);
    expect(files.files.get('src/a.ts')).toBe('special:fifo');
  });

  it('says plainly that a folder outside git cannot carry evidence, and that a repository without commits has no commit', async () => {
    const bare = await makeRepo({ 'a.txt': 'x\n' });
    await expect(readRepositoryFiles(bare)).rejects.toThrow(/is not in a git repository/);
    await git(bare, ['init', '-q']);
    const files = await readRepositoryFiles(bare);
    expect(files.objectFormat).toBe('sha1');
    expect(await readCommitState(bare, files)).toEqual({ commit: null, changed: new Set(['a.txt']) });
  });
});
