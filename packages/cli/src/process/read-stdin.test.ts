import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, graphConfig, LOCKED, makeRepo, payload, TASKS_OPEN } from '../test-support/cli.js';

// The built CLI, as a harness starts it: its stdin a real pipe or file, not a stream in the test.
const OPEN_ITEM = { '.the-loop/current': 'issue-7\n', 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_OPEN };

function stopHook(
  dir: string,
  stdin: 'pipe' | number,
  write?: (stdin: NodeJS.WritableStream) => void,
  node: readonly string[] = [],
  stderr?: (stderr: NodeJS.ReadableStream, stdin: NodeJS.WritableStream) => void,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...node, BIN, 'hook', 'Stop', '--harness', 'claude', '--repo', dir], { stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    // Read, and dropped unless the test watches it: a harness gives a hook's stderr a pipe, not a device.
    if (stderr && child.stderr && child.stdin) stderr(child.stderr, child.stdin);
    else child.stderr?.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin?.destroy();
      resolve({ code, stdout });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      write?.(child.stdin);
    }
  });
}

describe('a hook payload read from a real stdin', () => {
  it('a pipe that is never closed, half a payload written: the stop is held at the deadline', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': `${graphConfig()}\nhooks:\n  stopDeadlineSeconds: 0.3\n`, ...OPEN_ITEM });
    const text = await payload('claude', 'stop', { cwd: dir });
    const out = await stopHook(dir, 'pipe', (stdin) => stdin.write(text.slice(0, 20)));
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('deciding took longer than 0.3 s') });
  });

  it('a payload in two writes on a pipe, and one in a regular file, are decided as one written at once', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), ...OPEN_ITEM });
    const text = await payload('claude', 'stop', { cwd: dir });
    const whole = await stopHook(dir, 'pipe', (stdin) => stdin.end(text));
    expect(JSON.parse(whole.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('issue-7') });
    const split = await stopHook(dir, 'pipe', (stdin) => {
      stdin.write(text.slice(0, 20));
      setImmediate(() => stdin.end(text.slice(20)));
    });
    expect(split).toEqual(whole);
    const file = join(dir, 'payload.json');
    await writeFile(file, text);
    const fd = openSync(file, 'r');
    try {
      expect(await stopHook(dir, fd)).toEqual(whole);
    } finally {
      closeSync(fd);
    }
  });

  // Node makes a pipe or socket non-blocking when it makes `process.stdin`, loading its stream
  // and socket modules, about 3 ms of every turn; a payload already written needs neither.
  it('a payload written at once is read without making the stream; one written in two goes on through it', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), ...OPEN_ITEM });
    const text = await payload('claude', 'stop', { cwd: dir });
    const loaded = join(dir, 'loaded.json');
    const preload = join(dir, 'loaded.cjs');
    // The hook says, on its stderr, when it has read what stdin held and found no more yet: the
    // rest of a split payload is written only then, whatever the machine's load.
    await writeFile(
      preload,
      [
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`,
        "const fs = require('node:fs'); const readSync = fs.readSync; let told = false;",
        "fs.readSync = function (fd, ...rest) { try { return readSync.call(this, fd, ...rest); } catch (error) { if (fd === 0 && error.code === 'EAGAIN' && !told) { told = true; fs.writeSync(2, 'waiting on stdin\\n'); } throw error; } };",
        '',
      ].join('\n'),
    );
    const modules = async (write: (stdin: NodeJS.WritableStream) => void, stderr?: (stderr: NodeJS.ReadableStream, stdin: NodeJS.WritableStream) => void) => {
      const out = await stopHook(dir, 'pipe', write, ['-r', preload], stderr);
      expect(JSON.parse(out.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('issue-7') });
      return JSON.parse(await readFile(loaded, 'utf8')) as string[];
    };
    expect(await modules((stdin) => stdin.end(text))).not.toContain('NativeModule net');
    let waited = false;
    const split = await modules(
      (stdin) => stdin.write(text.slice(0, 20)),
      (stderr, stdin) => {
        stderr.on('data', (chunk: Buffer) => {
          if (waited || !chunk.toString('utf8').includes('waiting on stdin')) return;
          waited = true;
          stdin.end(text.slice(20));
        });
      },
    );
    expect(waited).toBe(true);
    expect(split).toContain('NativeModule net');
  });

  it('a payload over the 8 MB cap, in a pipe or a regular file, is refused and the stop held', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), ...OPEN_ITEM });
    const huge = `{"pad": "${'x'.repeat(9 * 1024 * 1024)}"}`;
    const piped = await stopHook(dir, 'pipe', (stdin) => stdin.end(huge));
    expect(JSON.parse(piped.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('stdin holds more than 8 MB') });
    const file = join(dir, 'huge.json');
    await writeFile(file, huge);
    const fd = openSync(file, 'r');
    try {
      expect(JSON.parse((await stopHook(dir, fd)).stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('stdin holds more than 8 MB') });
    } finally {
      closeSync(fd);
    }
  });
});
