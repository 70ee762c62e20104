import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { notStarted, type ProcessRequest, type ProcessResult } from '@the-loop/core';
import { killMarkedTree, newTreeMark, TREE_VARIABLE } from './descendants.js';
import { findExecutable } from './find-executable.js';
import { onFatalSignal } from './signals.js';

/** A process to run, with the runner's own limits. */
export interface RunRequest extends ProcessRequest {
  /** How long a process group gets between SIGTERM and SIGKILL. */
  readonly killGraceMs?: number | undefined;
  /** Output kept per stream; the rest is dropped and `truncated` set. */
  readonly maxOutputBytes?: number | undefined;
  /**
   * Also kill, when the process ends or times out, every descendant that left its process group
   * (`setsid`, a daemon): found by a mark in the environment they inherited (Linux). For rounds
   * that run untrusted programs, where the scan of the process table is worth its milliseconds.
   */
  readonly killEscapedDescendants?: boolean | undefined;
  /** Told the child's pid (its process group's id) once it has started. */
  readonly onSpawn?: ((pid: number) => void) | undefined;
}

/** A result whose stdout bytes are a Buffer, for callers that read binary output. */
export type RunResult = ProcessResult & { readonly stdoutBytes: Buffer };

const DEFAULT_GRACE_MS = 2000;
const DEFAULT_MAX_OUTPUT = 32 * 1024 * 1024;
// Node fires a longer timer at once (after a warning); 24.8 days is "no practical limit".
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one process runner: every child process the-loop starts goes through it. It runs an
 * argv list (never a shell) in a process group of its own. On timeout the whole group gets
 * SIGTERM and, after a grace period, SIGKILL, so a grandchild the process started dies with
 * it; whatever the group leaves behind when the process exits on its own is killed too.
 * Never throws: every failure is data in the result.
 */
export function runProcess(request: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const grace = request.killGraceMs ?? DEFAULT_GRACE_MS;
  const cap = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolvePromise) => {
    const out = new Collector(cap);
    const err = new Collector(cap);
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const mark = request.killEscapedDescendants === true ? newTreeMark() : undefined;
    let release = (): void => undefined;

    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      release();
      resolvePromise({
        spawnError,
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        stdout: out.text(),
        stdoutBytes: out.bytes(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        durationMs: performance.now() - started,
      });
    };

    let child;
    try {
      child = spawn(request.command, [...request.args], {
        cwd: request.cwd,
        env: definedEnv(mark === undefined ? request.env : { ...request.env, [TREE_VARIABLE]: mark }),
        shell: false,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      finish(describeSpawnError(error));
      return;
    }
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is already gone.
        }
      }
      if (signal === 'SIGKILL' && mark !== undefined) killMarkedTree(mark);
    };

    // The group is detached, so an operator's Ctrl-C would not reach it: kill it ourselves
    // before the CLI dies of the same signal.
    release = onFatalSignal(() => killGroup('SIGKILL'));

    child.on('error', (error) => {
      if (child.pid === undefined) finish(describeSpawnError(error));
    });
    if (child.pid !== undefined) request.onSpawn?.(child.pid);
    child.stdout.on('data', (chunk: Buffer) => out.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.add(chunk));
    // A child that exits without reading its stdin must not crash the runner with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin ?? '');

    timers.push(
      setTimeout(() => {
        timedOut = true;
        killGroup('SIGTERM');
        timers.push(setTimeout(() => killGroup('SIGKILL'), grace));
      }, Math.min(request.timeoutMs, MAX_TIMER_MS)),
    );
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the process left running in its group is an orphan of a finished round.
      killGroup('SIGKILL');
      // A descendant that left the group can hold the pipes open; do not wait on it forever.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish();
        }, grace),
      );
    });
    child.on('close', () => finish());
  });
}

/**
 * Run a program the way a critic round or a model probe does: looked up first on the
 * request's own PATH from its working directory, so "available" means what `critic list`
 * reports. One that is found but cannot be executed is missing its interpreter (its #! line).
 */
export async function runOnPath(request: RunRequest): Promise<RunResult> {
  const executable = await findExecutable(request.command, request.env, request.cwd);
  if (executable === undefined) return { ...notStarted('not-found'), stdoutBytes: Buffer.alloc(0) };
  const result = await runProcess({ ...request, command: executable, killEscapedDescendants: true });
  if (result.spawnError !== 'not-found') return result;
  return { ...result, spawnError: `${executable} exists, but its interpreter (its #! line) was not found` };
}

// An environment as a child process takes it: variables that are unset are left out.
function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function describeSpawnError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'not-found';
  return error instanceof Error ? error.message : String(error);
}

/** Keeps up to `cap` bytes of a stream and decodes them lossily: bad UTF-8 becomes U+FFFD, never a crash. */
class Collector {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  add(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return new TextDecoder('utf-8', { fatal: false }).decode(this.bytes());
  }
}
