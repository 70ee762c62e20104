import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo } from '../test-support/cli.js';
import { currentBranch } from './git.js';

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
