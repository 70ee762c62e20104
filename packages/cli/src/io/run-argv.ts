import { spawn } from 'node:child_process';

export interface ArgvResult {
  /** Exit code, or null when the program could not start or was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why the program did not run to an exit code (not found, timeout). */
  readonly error?: string;
}

/** Run a program from an argv list (never a shell), with stdin given or closed, bounded in time. */
export function runArgv(argv: readonly string[], options: { input?: string; timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<ArgvResult> {
  return new Promise((resolve) => {
    const [program, ...args] = argv;
    const child = spawn(program!, args, { shell: false, stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    let error: string | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      error = `timed out after ${options.timeoutMs / 1000} s`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code === 'ENOENT' ? `${program} is not installed (not found on PATH)` : e.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: error ? null : code, stdout, stderr, ...(error ? { error } : {}) });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
