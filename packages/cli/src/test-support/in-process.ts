// Test support: run the CLI inside the test process with an injected environment (the
// harness adapters included), collecting what it writes.
import { Readable, Writable } from 'node:stream';
import type { HarnessAdapter } from '@the-loop/core';
import { runCli } from '../main.js';
import type { CliResult } from './cli.js';

export interface InProcessOptions {
  readonly cwd: string;
  readonly adapters: readonly HarnessAdapter[];
  readonly stdin?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Run one command in this process; its exit code and output, as a child process would give them. */
export async function runInProcess(argv: readonly string[], options: InProcessOptions): Promise<CliResult> {
  const collect = () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const stdout = collect();
  const stderr = collect();
  const code = await runCli(argv, {
    cwd: options.cwd,
    env: options.env ?? { PATH: process.env['PATH'], NO_COLOR: '1' },
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    now: () => new Date(),
    adapters: options.adapters,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
