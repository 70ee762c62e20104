import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** One process to run: an argv list, never a shell line. */
export interface RunRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; absent closes stdin at once. */
  readonly stdin?: string | undefined;
  readonly timeoutMs: number;
  /** How long a process group gets between SIGTERM and SIGKILL. */
  readonly killGraceMs?: number | undefined;
  /** Output kept per stream; the rest is dropped and `truncated` set. */
  readonly maxOutputBytes?: number | undefined;
}

/** What a run observed. Output is kept, decoded lossily, even when the run timed out or failed. */
export interface RunOutcome {
  /** Set when the process could not be started; `not-found` for a missing executable. */
  readonly spawnError: string | undefined;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  /** stdout as the bytes it was, for binary output (git cat-file). */
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly durationMs: number;
}

const DEFAULT_GRACE_MS = 2000;
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const DEFAULT_MAX_OUTPUT = 32 * 1024 * 1024;
// Node fires a longer timer at once (after a warning); 24.8 days is "no practical limit".
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Run one process in a process group of its own. On timeout the whole group gets SIGTERM
 * and, after a grace period, SIGKILL, so a grandchild the process started dies with it;
 * whatever the group leaves behind when the process exits on its own is killed too. Never
 * throws: every failure is data in the outcome.
 */
export function runProcess(request: RunRequest): Promise<RunOutcome> {
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

    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      for (const signal of FORWARDED) process.off(signal, onSignal);
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
        env: { ...request.env },
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
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };

    // The group is detached, so an operator's Ctrl-C would not reach it: kill it ourselves,
    // then die of the same signal.
    const onSignal = (signal: NodeJS.Signals) => {
      killGroup('SIGKILL');
      for (const forwarded of FORWARDED) process.off(forwarded, onSignal);
      process.kill(process.pid, signal);
    };
    for (const signal of FORWARDED) process.on(signal, onSignal);

    child.on('error', (error) => {
      if (child.pid === undefined) finish(describeSpawnError(error));
    });
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

/** An environment as a child process takes it: variables that are unset are left out. */
export function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
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
