import { definedEnv, runProcess } from '../process/run-process.js';

export interface ArgvResult {
  /** Exit code, or null when the program could not start, timed out or was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why the program did not run to an exit code (not found, timeout). */
  readonly error?: string;
}

/**
 * Run a program from an argv list with stdin given or closed, bounded in time: the effects'
 * view of the one process runner (process group killed on timeout, output capped).
 */
export async function runArgv(argv: readonly string[], options: { input?: string; timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<ArgvResult> {
  const [program = '', ...args] = argv;
  const outcome = await runProcess({ command: program, args, cwd: options.cwd ?? process.cwd(), env: definedEnv(options.env ?? process.env), stdin: options.input, timeoutMs: options.timeoutMs });
  const error =
    outcome.spawnError === 'not-found'
      ? `${program} is not installed (not found on PATH)`
      : (outcome.spawnError ?? (outcome.timedOut ? `timed out after ${options.timeoutMs / 1000} s` : undefined));
  return { code: error === undefined ? outcome.exitCode : null, stdout: outcome.stdout, stderr: outcome.stderr, ...(error === undefined ? {} : { error }) };
}
