import { existsSync } from 'node:fs';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, runArgv } from '../test-support/cli.js';
import { currentBranch, headCommitFromFiles } from './head.js';

describe('currentBranch', () => {
  it('reads the branch from any folder of a repository or of a linked worktree, and nothing when HEAD is detached or there is no repository', async () => {
    const dir = await realpath(await makeRepo({ 'docs/readme.md': '# R\n' }));
    const outside = await realpath(await makeRepo({}));
    expect(await currentBranch(dir)).toBeUndefined();
    await git(dir, ['init', '-q']);
    await git(dir, ['checkout', '-q', '-b', 'issue-7']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'first']);
    expect(await currentBranch(dir)).toBe('issue-7');
    expect(await currentBranch(join(dir, 'docs'))).toBe('issue-7');
    // A linked worktree's `.git` is a file naming the repository's folder for it.
    const linked = join(outside, 'linked');
    await git(dir, ['worktree', 'add', '-q', '-b', 'issue-8', linked]);
    await mkdir(join(linked, 'deeper'));
    expect(await currentBranch(join(linked, 'deeper'))).toBe('issue-8');
    await git(dir, ['checkout', '-q', '--detach']);
    expect(await currentBranch(dir)).toBeUndefined();
  });
});

describe('headCommitFromFiles', () => {
  const revParse = async (dir: string) => (await git(dir, ['rev-parse', 'HEAD'])).trim();

  it('names the commit git names for HEAD: on a branch, its ref loose or packed, detached, in a linked worktree, from a subfolder', async () => {
    const dir = await realpath(await makeRepo({ 'docs/readme.md': '# R\n' }));
    await git(dir, ['init', '-q']);
    // No commit yet: the branch HEAD names has no ref.
    expect(await headCommitFromFiles(dir, {})).toBeUndefined();
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'first']);
    expect(await headCommitFromFiles(join(dir, 'docs'), {})).toBe(await revParse(dir));
    await git(dir, ['commit', '-q', '--allow-empty', '-m', 'second']);
    await git(dir, ['pack-refs', '--all']);
    expect(existsSync(join(dir, '.git/refs/heads/main'))).toBe(false);
    expect(await headCommitFromFiles(dir, {})).toBe(await revParse(dir));
    await git(dir, ['checkout', '-q', '--detach', 'HEAD~1']);
    expect(await headCommitFromFiles(dir, {})).toBe(await revParse(dir));
    const linked = join(await realpath(await makeRepo({})), 'linked');
    await git(dir, ['worktree', 'add', '-q', '-b', 'issue-8', linked, 'main']);
    await git(linked, ['commit', '-q', '--allow-empty', '-m', 'in the worktree']);
    expect(await headCommitFromFiles(linked, {})).toBe(await revParse(linked));
    expect(await headCommitFromFiles(linked, {})).not.toBe(await revParse(dir));
  });

  it('leaves HEAD to git where the environment moves the repository, and where the files are not what git writes', async () => {
    const dir = await realpath(await makeRepo({ 'a.md': '# A\n' }));
    await git(dir, ['init', '-q']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'first']);
    expect(await headCommitFromFiles(dir, { GIT_DIR: join(dir, '.git') })).toBeUndefined();
    expect(await headCommitFromFiles(await realpath(await makeRepo({})), {})).toBeUndefined();
    const ref = join(dir, '.git/refs/heads/main');
    const id = await revParse(dir);
    // A ref that is a link, a FIFO where HEAD is (never waited on), a HEAD that names a ref outside refs/.
    await rm(ref);
    await symlink('/dev/zero', ref);
    expect(await headCommitFromFiles(dir, {})).toBeUndefined();
    await rm(ref);
    await writeFile(ref, `${id}\n`);
    expect(await headCommitFromFiles(dir, {})).toBe(id);
    await writeFile(join(dir, '.git/HEAD'), 'ref: refs/../../outside\n');
    expect(await headCommitFromFiles(dir, {})).toBeUndefined();
    await rm(join(dir, '.git/HEAD'));
    await runArgv(['mkfifo', join(dir, '.git/HEAD')], { cwd: dir });
    expect(await headCommitFromFiles(dir, {})).toBeUndefined();
  });
});
