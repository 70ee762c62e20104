/**
 * A process to start: an argv list, never a shell line. Data only: core resolves it (a critic
 * round, a harness run), the CLI's one runner starts it.
 */
export interface ProcessRequest {
  /** argv[0]: a name looked up on the child's PATH, or a path. */
  readonly command: string;
  readonly args: readonly string[];
  /** An absolute working directory. */
  readonly cwd: string;
  /** The child's whole environment; variables whose value is undefined are left out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Written to the child's stdin, which is then closed; absent closes stdin at once. */
  readonly stdin?: string | undefined;
  readonly timeoutMs: number;
}

/**
 * What one run of a process observed. Output is kept, decoded lossily, also when the run
 * timed out or failed. Exactly one of these says how it ended: `spawnError` (it never
 * started), `exitCode` (it exited), or `signal` (it was killed); `timedOut` says the runner
 * killed it at its deadline.
 */
export interface ProcessResult {
  /** Why the process could not be started: `not-found` for a missing executable, else the system's message. */
  readonly spawnError: string | undefined;
  /** The exit code; null when the process never started or a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** Output past the runner's cap was dropped. */
  readonly truncated: boolean;
  readonly stdout: string;
  /** stdout as the bytes it was, for binary output (git cat-file). */
  readonly stdoutBytes: Uint8Array;
  readonly stderr: string;
  readonly durationMs: number;
}

/** A result for a process that was never started. */
export function notStarted(spawnError: string): ProcessResult {
  return { spawnError, exitCode: null, signal: null, timedOut: false, truncated: false, stdout: '', stdoutBytes: new Uint8Array(0), stderr: '', durationMs: 0 };
}

/** How a run ended, in words people read: `exit 3`, `killed by SIGKILL`, `timed out after 2 s`, `git was not found`. */
export function howItEnded(request: Pick<ProcessRequest, 'command' | 'timeoutMs'>, result: ProcessResult): string {
  if (result.spawnError === 'not-found') return `${request.command} was not found`;
  if (result.spawnError !== undefined) return `${request.command} could not be started: ${result.spawnError}`;
  if (result.timedOut) return `timed out after ${request.timeoutMs / 1000} s`;
  if (result.exitCode === null) return `killed by ${result.signal ?? 'a signal'}`;
  return `exit ${result.exitCode}`;
}

/**
 * Why a run failed, or undefined when it succeeded: it exited 0 in time with all of its
 * output. Cut-off output is a failure (a path list missing its tail would let a gate check
 * less than it should). A non-zero exit is described by its stderr when it said anything.
 */
export function runFailure(request: Pick<ProcessRequest, 'command' | 'timeoutMs'>, result: ProcessResult): string | undefined {
  if (result.spawnError === undefined && !result.timedOut && result.exitCode !== null) {
    if (result.exitCode !== 0) return result.stderr.trim() || howItEnded(request, result);
    return result.truncated ? 'its output was cut off at the size limit' : undefined;
  }
  return howItEnded(request, result);
}
