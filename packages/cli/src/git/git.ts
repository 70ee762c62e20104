import { runFailure } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { runProcess } from '../process/run-process.js';

// git output can be a whole tree's file list or blobs; a cut-off list would check less than was pushed.
const MAX_GIT_OUTPUT_BYTES = 256 * 1024 * 1024;
const GIT_TIMEOUT_MS = 60_000;

/** Run git in `cwd`; a failure is an error naming the command (every git caller fails closed). */
export async function git(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  const request = { command: 'git', args, cwd, env: process.env, stdin: input, timeoutMs: GIT_TIMEOUT_MS, maxOutputBytes: MAX_GIT_OUTPUT_BYTES };
  const result = await runProcess(request);
  const failure = runFailure(request, result);
  if (failure !== undefined) throw new UsageError(`git ${args.join(' ')} failed: ${failure}`);
  return result.stdoutBytes;
}

/**
 * Read objects by name (`<sha>`, `<commit>:<path>`) with one `git cat-file --batch`: each one's
 * bytes, in the order asked, or undefined for a name that names nothing. Names hold no newline.
 */
export async function readObjects(cwd: string, names: readonly string[]): Promise<(Buffer | undefined)[]> {
  return (await readNamedObjects(cwd, names)).map((object) => object?.bytes);
}

/** {@link readObjects}, each object with the id its name resolved to (`HEAD`: the commit it names). */
export async function readNamedObjects(cwd: string, names: readonly string[]): Promise<({ id: string; bytes: Buffer } | undefined)[]> {
  if (names.length === 0) return [];
  if (names.some((name) => /[\r\n]/.test(name))) throw new Error('an object name holds a line break');
  const out = await git(cwd, ['cat-file', '--batch'], `${names.join('\n')}\n`);
  const found: ({ id: string; bytes: Buffer } | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < names.length; i += 1) {
    const newline = out.indexOf(10, at);
    if (newline < 0) throw new Error('git cat-file --batch stopped early');
    const header = out.subarray(at, newline).toString('utf8').split(' ');
    at = newline + 1;
    // `<oid> <type> <size>` for an object; `<name> missing` (or `ambiguous`) otherwise.
    const [oid, type, size] = header;
    if (header.length !== 3 || !/^[0-9a-f]+$/.test(oid ?? '') || !OBJECT_TYPES.has(type ?? '') || !/^\d+$/.test(size ?? '')) {
      found.push(undefined);
      continue;
    }
    const length = Number(size);
    found.push({ id: oid as string, bytes: out.subarray(at, at + length) });
    at += length + 1;
  }
  return found;
}

const OBJECT_TYPES = new Set(['blob', 'tree', 'commit', 'tag']);

/** HEAD's commit id, or null when the repository has no commit yet; not being in a repository is an error. */
export async function headCommit(cwd: string): Promise<string | null> {
  const request = { command: 'git', args: ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], cwd, env: process.env, timeoutMs: GIT_TIMEOUT_MS };
  const result = await runProcess(request);
  if (result.exitCode === 0) return result.stdout.trim();
  // `--verify -q` says "no such commit" with exit 1 and nothing on stderr; anything else is a failure.
  if (result.exitCode === 1 && result.stderr.trim() === '') return null;
  const failure = runFailure(request, result) ?? 'no output';
  throw notAGitRepository(cwd, new UsageError(`git rev-parse HEAD failed: ${failure}`));
}

/** A git failure, said plainly when the reason is that there is no repository at all. */
export function notAGitRepository(cwd: string, error: unknown): unknown {
  if (error instanceof Error && /not a git repository/i.test(error.message)) return new UsageError(`${cwd} is not in a git repository; evidence is bound to git's view of the files`);
  return error;
}

/** The NUL-separated list git prints with `-z`, as strings. */
export function splitZ(output: Buffer): string[] {
  return output.toString('utf8').split('\0').filter((s) => s !== '');
}
