// Helpers for tests that run `the-loop` (in process; the stand-ins it starts are real child
// processes) against temporary projects, with the harness stand-ins on PATH.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { makeRepo, runCli, type CliResult } from './cli.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export { BIN } from './cli.js';
/** The `claude` and `cursor-agent` stand-ins. */
export const STANDINS = join(REPO_ROOT, 'test-fixtures/harness-standins/bin');
/** A PATH with the stand-ins and node (their interpreter), and nothing else. */
export const STANDIN_PATH = [STANDINS, dirname(process.execPath)].join(delimiter);

export type { CliResult } from './cli.js';

/** A temp directory with the given files (paths relative to it). */
export const tempProject = (files: Record<string, string> = {}): Promise<string> => makeRepo(files);

/** Run the CLI (in process). `env` replaces the environment entirely (PATH included): by default only the stand-ins and node. */
export function runWithStandins(args: readonly string[], options: { cwd: string; env?: Record<string, string>; stdin?: string }): Promise<CliResult> {
  return runCli(args, { cwd: options.cwd, env: options.env ?? { PATH: STANDIN_PATH }, inherit: false, ...(options.stdin !== undefined ? { input: options.stdin } : {}) });
}

/**
 * Run `start` (in process) with the timers' clock stopped until the child it starts reports, by
 * creating `file`, that it got where the test needs it; then move the clock past `timeoutMs` and
 * a kill's grace period. However slowly a loaded machine starts the child, the timeout cannot
 * come first.
 */
export async function withClockAfter<T>(file: string, timeoutMs: number, start: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const running = start();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => existsSync(file) && (clearInterval(poll), resolve()), 10);
    });
    await vi.advanceTimersByTimeAsync(timeoutMs);
    await vi.advanceTimersByTimeAsync(2000);
    return await running;
  } finally {
    vi.useRealTimers();
  }
}

/** One invocation a stand-in recorded. */
export interface Recorded {
  readonly harness: string;
  readonly argv: string[];
  readonly stdin: string;
  readonly cwd: string;
  readonly prompt: string;
  readonly promptFromFile: string | null;
}

/** Every invocation recorded in `file`; none when the file does not exist (nothing ran). */
export async function recorded(file: string): Promise<Recorded[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Recorded);
}

/**
 * Whether a process with this pid is still running. A zombie (killed, waiting to be reaped
 * by an init that may never reap it, as in some containers) is not running.
 */
export function isAlive(pid: number): boolean {
  // 0 and -1 name process groups, which `kill` finds alive: a pid read from a file written only
  // in part must fail the test here, not keep it polling.
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${pid} is not a process id`);
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
