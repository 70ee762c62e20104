import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, graphConfig, makeRepo, TASKS_OPEN } from '../test-support/cli.js';
import { findExecutable } from './find-executable.js';
import { fdWriter } from './fd-writer.js';

// A real terminal for the CLI to print to: tmux's pane, where it is installed.
const TMUX = await findExecutable('tmux', process.env, process.cwd());

const ITEM = { '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-7/tasks.md': TASKS_OPEN };

// The built CLI with its output on the descriptors a parent gives it.
function cli(args: readonly string[], stdout: 'pipe' | number, onStart?: (child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', stdout, 'pipe'], env: plainEnv() });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: out, stderr: err }));
    onStart?.(child);
  });
}

describe("the CLI's own output, written to its descriptors", () => {
  it('reaches a pipe and a file whole, uncoloured (neither is a terminal), and /dev/null takes it', async () => {
    const dir = await makeRepo(ITEM);
    const piped = await cli(['check', 'issue-7', '--repo', dir], 'pipe');
    expect(piped.stdout).toContain('issue-7');
    expect(piped.stdout).not.toContain('\u001b[');
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const filed = await cli(['check', 'issue-7', '--repo', dir], fd);
      expect([filed.code, filed.stderr]).toEqual([piped.code, piped.stderr]);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    const nul = openSync('/dev/null', 'w');
    try {
      expect(await cli(['check', 'issue-7', '--repo', dir], nul)).toEqual({ code: piped.code, stdout: '', stderr: piped.stderr });
    } finally {
      closeSync(nul);
    }
  });

  it('asks a character device whether it is a terminal without loading the socket modules', async () => {
    const dir = await makeRepo(ITEM);
    const loaded = join(dir, 'loaded.json');
    const preload = join(dir, 'loaded.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));\n`);
    const nul = openSync('/dev/null', 'w');
    try {
      const done = spawnSync(process.execPath, ['-r', preload, BIN, 'check', 'issue-7', '--repo', dir], { stdio: ['ignore', nul, nul], env: plainEnv() });
      expect(done.status).toBe(1);
    } finally {
      closeSync(nul);
    }
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules).not.toContain('NativeModule net');
    expect(modules).not.toContain('NativeModule tty');
  });

  it.skipIf(TMUX === undefined)('is coloured on a terminal: the same run in a tmux pane prints its styles', async () => {
    const dir = await makeRepo(ITEM);
    const socket = `the-loop-test-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync(TMUX as string, ['-L', socket, ...args], { encoding: 'utf8', env: plainEnv() });
    // The pane stays once the CLI has exited, set before the pane starts (a CLI that ended before
    // the option was set took its session and the server with it); what it printed is read then,
    // escapes included.
    tmux('start-server', ';', 'set-option', '-wg', 'remain-on-exit', 'on', ';', 'new-session', '-d', '-x', '200', '-y', '50', '-s', 'cli', process.execPath, BIN, 'check', 'issue-7', '--repo', dir);
    try {
      const deadline = Date.now() + 20_000;
      while (tmux('display-message', '-p', '-t', 'cli', '#{pane_dead}').trim() !== '1' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const screen = tmux('capture-pane', '-p', '-e', '-t', 'cli');
      expect(screen).toContain('issue-7');
      expect(screen).toContain('\u001b[1m');
    } finally {
      tmux('kill-server');
    }
  });

  it('a reader that has gone (`| head`) ends the run quietly, with no stack trace', async () => {
    const dir = await makeRepo(ITEM);
    // The read end is closed before the CLI has started, so its first write fails with EPIPE.
    const result = await cli(['report', '--repo', dir, '--format', 'json'], 'pipe', (child) => child.stdout?.destroy());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('fdWriter', () => {
  it('hands what a non-blocking descriptor refuses (EAGAIN), and every later write, to the fallback in order', async () => {
    const { local, peer, close } = await socketPair();
    try {
      // A socket's descriptor is non-blocking; 4 MB is more than its buffers hold while the peer does not read.
      const fd = (local as unknown as { _handle: { fd: number } })._handle.fd;
      let handedOver = false;
      const writer = fdWriter(fd, () => {
        handedOver = true;
        return local;
      });
      const first = Buffer.alloc(4 * 1024 * 1024, 'a');
      const received: Buffer[] = [];
      peer.pause();
      writer.write(first);
      writer.write('then this');
      const written = new Promise((resolve) => writer.write(Buffer.alloc(0), resolve));
      expect(handedOver).toBe(true);
      // What the stream holds is not out yet: the output has not settled while no one reads.
      let settled = false;
      const allOut = writer.settled().then(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      peer.on('data', (chunk: Buffer) => received.push(chunk));
      peer.resume();
      await Promise.all([written, allOut]);
      local.end();
      await once(peer, 'end');
      expect(Buffer.concat(received).equals(Buffer.concat([first, Buffer.from('then this')]))).toBe(true);
    } finally {
      close();
    }
  });

  it('reports a reader that has gone once, as an error event, and fails every write after it', async () => {
    // A reader that closes its end of the pipe, says so, and stays until it is killed.
    const child = spawn(process.execPath, ['-e', "require('fs').closeSync(0); process.stdout.write('closed'); setInterval(() => {}, 1000)"], { stdio: ['pipe', 'pipe', 'ignore'] });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const writer = fdWriter((child.stdin as unknown as { _handle: { fd: number } })._handle.fd, () => {
      throw new Error('no fallback: the descriptor refuses nothing');
    });
    const errors: string[] = [];
    writer.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? ''));
    const written = (text: string) => new Promise<string | undefined>((resolve) => writer.write(text, (error) => resolve((error as NodeJS.ErrnoException | null | undefined)?.code)));
    expect(await Promise.all([written('one'), written('two')])).toEqual(['EPIPE', 'EPIPE']);
    expect(errors).toEqual(['EPIPE']);
    child.kill();
  });

  it('is a terminal only on a character device that is one', async () => {
    const { local, close } = await socketPair();
    try {
      expect(fdWriter((local as unknown as { _handle: { fd: number } })._handle.fd, () => local).isTTY).toBe(false);
      const nul = openSync('/dev/null', 'w');
      try {
        expect(fdWriter(nul, () => local).isTTY).toBe(false);
      } finally {
        closeSync(nul);
      }
    } finally {
      close();
    }
  });
});

// The test's environment without NO_COLOR and FORCE_COLOR: colour only because the output is a
// terminal, never because the test runner asks for it.
function plainEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  return env;
}

// Two connected sockets over a Unix socket in a temporary folder.
async function socketPair(): Promise<{ local: Socket; peer: Socket; close: () => void }> {
  const dir = await makeRepo({});
  const path = join(dir, 's.sock');
  const server = createServer();
  server.listen(path);
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const local = connect(path);
  await once(local, 'connect');
  const [peer] = await accepted;
  return {
    local,
    peer,
    close: () => {
      local.destroy();
      peer.destroy();
      server.close();
    },
  };
}
