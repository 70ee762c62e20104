import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { runProcess } from './run-process.js';

/** Run git in `cwd`; a failure is an error naming the command (every git caller fails closed). */
export async function git(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  const result = await runProcess(['git', ...args], { cwd, ...(input !== undefined ? { input } : {}) });
  if (result.code !== 0) throw new UsageError(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}

/** The NUL-separated list git prints with `-z`, as strings. */
export function splitZ(output: Buffer): string[] {
  return output.toString('utf8').split('\0').filter((s) => s !== '');
}

/**
 * The branch checked out in the repository containing `dir`, read from HEAD without
 * spawning git (a hook stays fast); undefined when HEAD is detached or there is no repository.
 */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const gitDir = await findGitDir(resolve(dir));
  if (!gitDir) return undefined;
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  const match = /^ref:\s*refs\/heads\/(.+)$/m.exec(head.trim());
  return match?.[1];
}

async function findGitDir(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const dotGit = join(current, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return dotGit;
    if (info?.isFile()) {
      // A worktree or submodule: `.git` is a file naming the real directory.
      const text = await readFile(dotGit, 'utf8').catch(() => '');
      const target = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
      return target ? resolve(current, target) : undefined;
    }
    if (dirname(current) === current) return undefined;
  }
}
