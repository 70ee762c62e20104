import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { runInProcess } from './in-process.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** The built launcher: tests run the product as users do. */
export const BIN = join(root, 'packages/cli/bin/the-loop.cjs');
const PAYLOADS = join(root, 'test-fixtures/hook-payloads');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** false: `env` is the whole environment (PATH included), nothing inherited. */
  readonly inherit?: boolean;
  /** Kill the process (SIGKILL) if it is still running after this long. */
  readonly timeoutMs?: number;
}

/** Run the built CLI as a child process (argv list, no shell): for the tests that must see the product as users start it. */
export function runBuiltCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  if (!existsSync(join(root, 'packages/cli/dist/the-loop.cjs'))) throw new Error('the CLI is not built: run `node scripts/build.mjs` (the test script does)');
  return runArgv([process.execPath, BIN, ...args], options);
}

/**
 * Run the CLI inside the test process, with the environment, stdin and adapters a child process
 * would get (`timeoutMs` does not apply): the same exit code and output, without a Node start-up.
 */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  return runInProcess(args, { cwd: options.cwd, env: childEnv(options), stdin: options.input ?? '', adapters: BUILT_IN_ADAPTERS });
}

// Variables a surrounding harness or CI may set must not steer the process under test: `CI`
// turns the artifact cache off, so a test that runs the same locally and in CI sets it itself.
function childEnv(options: RunOptions): NodeJS.ProcessEnv {
  const { CLAUDE_PROJECT_DIR: _p, GITHUB_OUTPUT: _o, FORCE_COLOR: _f, CI: _c, ...inherited } = process.env;
  return options.inherit === false ? { ...options.env } : { ...inherited, NO_COLOR: '1', ...options.env };
}

/** Run any argv list and collect its output. */
export function runArgv(argv: readonly string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd as string, args, { cwd: options.cwd, env: childEnv(options), shell: false });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 128, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary folder `the-loop-<name>-…`, removed when the test that made it ends. */
export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `the-loop-${name}-`));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const RETROFIT = join(root, 'test-fixtures/retrofit-34');

/**
 * The bundled corpus of 34 work items copied into `dir`: the whole repository without any
 * machine-local state a run over it left, or only the work items `ids`.
 */
export async function copyRetrofit(dir: string, ids?: readonly string[]): Promise<void> {
  if (ids === undefined) await cp(RETROFIT, dir, { recursive: true, filter: (source) => !source.includes(join('.the-loop', 'local')) });
  else for (const id of ids) await cp(join(RETROFIT, 'docs/specs', id), join(dir, 'docs/specs', id), { recursive: true });
}

/** A temporary directory holding the given files (paths with `/`). */
export async function makeRepo(files: Readonly<Record<string, string>>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'the-loop-test-'));
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    if (text.startsWith('#!')) await chmod(target, 0o755);
  }
}

/** A committed fixture payload with `{{cwd}}` and `{{file}}` filled in. */
export async function payload(harness: 'claude' | 'cursor', name: string, values: { cwd: string; file?: string; [key: string]: unknown }): Promise<string> {
  const text = await readFile(join(PAYLOADS, harness, `${name}.json`), 'utf8');
  const filled = text.replaceAll('{{cwd}}', values.cwd).replaceAll('{{file}}', values.file ?? '');
  const { cwd: _c, file: _f, ...overrides } = values;
  return JSON.stringify({ ...JSON.parse(filled), ...overrides });
}

/** Run git (argv) in a directory with a fixed identity; throws on failure. */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const result = await runArgv(['git', '-c', 'user.name=Test', '-c', 'user.email=test@localhost', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** A small graph of agent nodes (requirements locked → tasks ticked), optionally with a human approval between them. */
export function graphConfig(options: { humanApproval?: boolean; cap?: number } = {}): string {
  const approval = options.humanApproval
    ? '      - {id: approval, phase: requirements-definition, actor: human, produces: requirements.md, gate: [{approved: requirements.md}]}\n'
    : '';
  const edges = options.humanApproval
    ? '      - {from: requirements, to: approval, on: pass}\n      - {from: approval, to: implementation, on: pass}\n'
    : '      - {from: requirements, to: implementation, on: pass}\n';
  return [
    'workflow:',
    '  specDir: docs/specs',
    '  graph:',
    '    start: requirements',
    '    nodes:',
    '      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, gate: [{locked: true}]}',
    approval.trimEnd(),
    '      - {id: implementation, phase: implementation, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}',
    '    edges:',
    edges.trimEnd(),
    ...(options.cap !== undefined ? ['hooks:', `  noProgressCap: ${options.cap}`] : []),
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

export const LOCKED = '---\nstatus: approved\n---\n# Requirements\n\nGreet the user.\n';
export const TASKS_OPEN = '# Tasks\n\n- [x] Write the greeting\n- [ ] Test the greeting\n';
export const TASKS_DONE = '# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n';
