// Helpers for tests that run the built `the-loop` binary as a real child process against
// temporary projects, with the harness stand-ins on PATH.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const BIN = join(REPO_ROOT, 'packages/cli/bin/the-loop.cjs');
/** The `claude` and `cursor-agent` stand-ins. */
export const STANDINS = join(REPO_ROOT, 'test-fixtures/harness-standins/bin');
/** A PATH with the stand-ins and node (their interpreter), and nothing else. */
export const STANDIN_PATH = [STANDINS, dirname(process.execPath)].join(delimiter);

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A temp directory with the given files (paths relative to it). */
export async function tempProject(files: Record<string, string> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'the-loop-test-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

/** Run the built CLI. `env` replaces the environment entirely (PATH included). */
export function runCli(args: readonly string[], options: { cwd: string; env?: Record<string, string>; stdin?: string }): Promise<CliResult> {
  if (!existsSync(join(REPO_ROOT, 'packages/cli/dist/the-loop.cjs'))) throw new Error('the CLI is not built: run `node scripts/build.mjs` first');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? { PATH: STANDIN_PATH },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
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
