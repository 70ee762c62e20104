import { definedEnv, runProcess as runGroup } from '../process/run-process.js';

const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface ProcessResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * Run an argv list (never a shell) through the one process runner and give its stdout as
 * bytes. A process that cannot start, is killed or times out is a non-zero result with the
 * reason in `stderr`, never a success.
 */
export async function runProcess(argv: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const [command, ...args] = argv;
  if (!command) return { code: 127, stdout: Buffer.alloc(0), stderr: 'empty command' };
  const timeoutMs = options.timeoutMs ?? 60_000;
  const outcome = await runGroup({ command, args, cwd: options.cwd, env: definedEnv(options.env ?? process.env), stdin: options.input, timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
  if (outcome.spawnError !== undefined) {
    return { code: 127, stdout: outcome.stdoutBytes, stderr: outcome.spawnError === 'not-found' ? `${command}: not found` : outcome.spawnError };
  }
  if (outcome.timedOut) return { code: 124, stdout: outcome.stdoutBytes, stderr: `${outcome.stderr}timed out after ${timeoutMs / 1000} s` };
  // Cut-off output (a path list missing its tail) would let a gate check less than it should.
  if (outcome.truncated) return { code: 125, stdout: outcome.stdoutBytes, stderr: `${outcome.stderr}output over ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB was cut off` };
  if (outcome.exitCode === null) return { code: 128, stdout: outcome.stdoutBytes, stderr: `${outcome.stderr}killed by ${outcome.signal ?? 'a signal'}` };
  return { code: outcome.exitCode, stdout: outcome.stdoutBytes, stderr: outcome.stderr };
}
