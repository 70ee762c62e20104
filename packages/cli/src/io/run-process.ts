import { spawn } from 'node:child_process';

export interface ProcessResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly input?: string | Buffer;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * Run an argv list (never a shell) and collect its output. A process that cannot start,
 * is killed or times out is a non-zero result with the reason in `stderr`, never a success.
 */
export function runProcess(argv: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const [command, ...args] = argv;
  return new Promise((resolve) => {
    if (!command) {
      resolve({ code: 127, stdout: Buffer.alloc(0), stderr: 'empty command' });
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => {});
    let failure: string | undefined;
    child.on('error', (error) => (failure = error.message));
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({
        code: failure !== undefined ? 127 : (code ?? 128),
        stdout: Buffer.concat(out),
        stderr: failure ?? (signal ? `${stderr}killed by ${signal}` : stderr),
      });
    });
    child.stdin.end(options.input ?? '');
  });
}
