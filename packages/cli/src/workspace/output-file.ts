import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { runProcess } from '../process/run-process.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * Where a file named on the command line (`critic run --output-file`) may be written: a new
 * file in a folder that exists, or a regular file that is already there and that git does not
 * track. A device, a FIFO, a socket, a directory, a symbolic link, anything inside a `.git`
 * folder (git would run what its config names) and a tracked file (an artifact, a
 * configuration) are refused before anything runs; no folder is created. Returns the absolute path.
 */
export async function checkOutputPath(cwd: string, given: string, option: string): Promise<string> {
  const path = resolve(cwd, given);
  const refuse = (why: string): never => {
    throw new UsageError(`${option} ${given}: ${why}`);
  };
  const folder = await fs.stat(dirname(path)).catch(() => undefined);
  if (!folder?.isDirectory()) refuse(`its folder ${dirname(path)} does not exist (it is not created)`);
  const real = join(await fs.realpath(dirname(path)), basename(path));
  if (real.split(sep).includes('.git')) refuse('it is inside a .git folder');
  const existing = await fs.lstat(path).catch(() => undefined);
  if (existing === undefined) return path;
  if (existing.isSymbolicLink()) refuse('it is a symbolic link; name the file itself');
  if (!existing.isFile()) refuse(`it is ${existing.isDirectory() ? 'a directory' : existing.isFIFO() ? 'a FIFO' : existing.isSocket() ? 'a socket' : 'a device'}, not a regular file`);
  if (await trackedByGit(real)) refuse('git tracks it; write the output to a new or untracked file');
  return path;
}

/** Write what a command produced to a path `checkOutputPath` accepted, atomically. */
export async function writeOutputFile(path: string, contents: string): Promise<void> {
  await writeFileAtomic(path, contents);
}

async function trackedByGit(path: string): Promise<boolean> {
  const result = await runProcess({ command: 'git', args: ['ls-files', '--error-unmatch', '--', basename(path)], cwd: dirname(path), env: process.env, timeoutMs: 30_000 });
  return result.exitCode === 0;
}
