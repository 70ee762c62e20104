import { describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';

describe('runProcess (bytes)', () => {
  it('keeps binary stdout byte for byte, as git cat-file prints it', async () => {
    const result = await runProcess([process.execPath, '-e', 'process.stdout.write(Buffer.from([0, 255, 254, 10, 195]))'], { cwd: process.cwd() });
    expect(result.code).toBe(0);
    expect([...result.stdout]).toEqual([0, 255, 254, 10, 195]);
  });

  it('turns a timeout, a missing program and a signal into non-zero results that say why', async () => {
    const slow = await runProcess([process.execPath, '-e', 'setInterval(() => {}, 1000)'], { cwd: process.cwd(), timeoutMs: 300 });
    expect(slow.code).not.toBe(0);
    expect(slow.stderr).toContain('timed out after 0.3 s');
    const missing = await runProcess(['the-loop-no-such-program'], { cwd: process.cwd() });
    expect(missing).toMatchObject({ code: 127, stderr: 'the-loop-no-such-program: not found' });
    const killed = await runProcess([process.execPath, '-e', "process.kill(process.pid, 'SIGKILL')"], { cwd: process.cwd() });
    expect(killed.code).not.toBe(0);
    expect(killed.stderr).toContain('killed by SIGKILL');
  });
});
