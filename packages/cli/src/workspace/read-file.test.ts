import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { graphConfig, LOCKED, makeRepo, payload, TASKS_OPEN } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';
import { runCli } from '../main.js';
import { createHash } from 'node:crypto';
import { digestIfPresent, escapes, readBytesIfPresent, readIfPresent, readRecordSync } from './read-file.js';

async function repo(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), 'the-loop-read-')));
}

function mkfifo(path: string): void {
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
}

const refusal = (promise: Promise<unknown>) => promise.then(() => 'read', (error: Error) => error.message);

describe('escapes', () => {
  it('says what path.relative says of a path against a root, for paths with dots, doubled separators and shared prefixes', () => {
    const segment = fc.constantFrom('a', 'b', 'ab', '.', '..', '...', 'a..b', '..a', '', 'specs', 'x.md');
    const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(path, path, fc.boolean(), (root, rest, under) => {
        const target = under ? `${root}${rest}` : rest;
        const rel = relative(root, target);
        const expected = rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
        expect(escapes(root, target), `${root} ${target}`).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('special files are read without bound', () => {
  it('a record read synchronously: a FIFO, a device, any symbolic link and a file past its cap are refused; absent is undefined', async () => {
    const dir = await repo();
    const syncRefusal = (path: string, cap = 64) => {
      try {
        return readRecordSync(path, cap)?.toString() ?? 'absent';
      } catch (error) {
        return (error as Error).message;
      }
    };
    mkfifo(join(dir, 'fifo.json'));
    await writeFile(join(dir, 'entry.json'), '{"a":1}');
    await symlink('entry.json', join(dir, 'alias.json'));
    await symlink('/dev/zero', join(dir, 'zero.json'));
    expect(syncRefusal(join(dir, 'entry.json'))).toBe('{"a":1}');
    expect(syncRefusal(join(dir, 'missing.json'))).toBe('absent');
    expect(syncRefusal(join(dir, 'fifo.json'))).toBe('it is a FIFO (named pipe), not a regular file');
    expect(syncRefusal(join(dir, 'alias.json'))).toBe('it is a symbolic link');
    expect(syncRefusal(join(dir, 'zero.json'))).toBe('it is a symbolic link');
    expect(syncRefusal(join(dir, 'entry.json'), 6)).toBe('it is 0.0 MB; files over 0.0 MB are refused');
    expect(syncRefusal(join(dir, 'entry.json'), 7)).toBe('{"a":1}');
  });

  it('a FIFO is refused at once, never waited on', async () => {
    const dir = await repo();
    mkfifo(join(dir, 'tasks.md'));
    expect(await refusal(readIfPresent(join(dir, 'tasks.md'), { within: dir }))).toBe('it is a FIFO (named pipe), not a regular file');
    expect(await refusal(readIfPresent(join(dir, 'tasks.md')))).toBe('it is a FIFO (named pipe), not a regular file');
  });

  it('a symbolic link to /dev/zero is refused, inside a repository or not', async () => {
    const dir = await repo();
    await symlink('/dev/zero', join(dir, 'design.md'));
    expect(await refusal(readIfPresent(join(dir, 'design.md'), { within: dir }))).toBe('it is a symbolic link out of the repository (to /dev/zero)');
    expect(await refusal(readIfPresent(join(dir, 'design.md')))).toBe('it is a device, not a regular file');
  });

  it('a device node and a socket are refused', async () => {
    const dir = await repo();
    if (spawnSync('mknod', [join(dir, 'null'), 'c', '1', '3']).status === 0) {
      expect(await refusal(readIfPresent(join(dir, 'null'), { within: dir }))).toBe('it is a device, not a regular file');
    }
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'socket'), resolve));
    expect(await refusal(readIfPresent(join(dir, 'socket'), { within: dir }))).toBe('it is a socket, not a regular file');
    server.close();
  });

  it('a symbolic link, or a folder link, out of the repository is not followed; one inside is', async () => {
    const dir = await repo();
    const outside = await repo();
    await writeFile(join(outside, 'secret.md'), 'secret\n');
    await writeFile(join(dir, 'real.md'), 'mine\n');
    await symlink('/etc/passwd', join(dir, 'requirements.md'));
    await symlink(outside, join(dir, 'elsewhere'));
    await symlink('real.md', join(dir, 'alias.md'));
    expect(await refusal(readIfPresent(join(dir, 'requirements.md'), { within: dir }))).toBe('it is a symbolic link out of the repository (to /etc/passwd)');
    expect(await refusal(readIfPresent(join(dir, 'elsewhere', 'secret.md'), { within: dir }))).toBe(
      `its folder is reached through a symbolic link out of the repository (to ${join(outside, 'secret.md')})`,
    );
    expect(await refusal(readIfPresent(join(dir, '..', 'x.md'), { within: dir }))).toBe('it lies outside the repository');
    expect(await readIfPresent(join(dir, 'alias.md'), { within: dir })).toBe('mine\n');
    expect(await refusal(readIfPresent(join(dir, 'alias.md'), { within: dir, noLinks: true }))).toBe('it is a symbolic link');
  });

  it('a file listed as a regular file is refused all the same when a FIFO, a link out or a file past its cap stands there now', async () => {
    // What a folder listed a moment ago may hold by the time the file is opened.
    const dir = await repo();
    const listed = { within: dir, folderChecked: true, listedAsFile: true, maxBytes: 1000 };
    mkfifo(join(dir, 'tasks.md'));
    await symlink('/dev/zero', join(dir, 'design.md'));
    await writeFile(join(dir, 'real.md'), 'mine\n');
    await symlink('real.md', join(dir, 'alias.md'));
    await writeFile(join(dir, 'big.md'), 'x'.repeat(1001));
    expect(await refusal(readIfPresent(join(dir, 'tasks.md'), listed))).toBe('it is a FIFO (named pipe), not a regular file');
    expect(await refusal(readIfPresent(join(dir, 'design.md'), listed))).toBe('it is a symbolic link out of the repository (to /dev/zero)');
    expect(await refusal(readIfPresent(join(dir, 'big.md'), listed))).toMatch(/files over .* are refused/);
    expect(await readIfPresent(join(dir, 'alias.md'), listed)).toBe('mine\n');
    expect(await readIfPresent(join(dir, 'real.md'), listed)).toBe('mine\n');
    expect(await readIfPresent(join(dir, 'gone.md'), listed)).toBeUndefined();
  });

  it('a file over its cap is refused whole, also one whose size the file system does not report', async () => {
    const dir = await repo();
    await writeFile(join(dir, 'big.md'), 'x'.repeat(1001));
    await writeFile(join(dir, 'fits.md'), 'x'.repeat(1000));
    expect(await refusal(readBytesIfPresent(join(dir, 'big.md'), { maxBytes: 1000 }))).toMatch(/files over .* are refused/);
    expect((await readBytesIfPresent(join(dir, 'fits.md'), { maxBytes: 1000 }))?.length).toBe(1000);
    if (process.platform === 'linux') {
      // /proc files say they are empty; the read itself is bounded.
      expect(await refusal(readBytesIfPresent('/proc/self/maps', { maxBytes: 10 }))).toMatch(/holds more than/);
    }
  });

  it('a digest is the SHA-256 of the bytes a read gives, with the same refusals, a file past its cap included', async () => {
    const dir = await repo();
    // Past one chunk of the digest's buffer, and not a whole number of them.
    const bytes = Buffer.from(Array.from({ length: 200_003 }, (_, i) => (i * 7919) % 251));
    await writeFile(join(dir, 'baseline.json'), bytes);
    await writeFile(join(dir, 'empty.json'), '');
    const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
    expect(await digestIfPresent(join(dir, 'baseline.json'), { within: dir, maxBytes: 300_000 })).toBe(sha(bytes));
    expect(await digestIfPresent(join(dir, 'empty.json'), { within: dir })).toBe(sha(new Uint8Array()));
    expect(await digestIfPresent(join(dir, 'absent.json'), { within: dir })).toBeUndefined();
    expect(await refusal(digestIfPresent(join(dir, 'baseline.json'), { within: dir, maxBytes: 200_002 }))).toMatch(/files over .* are refused/);
    mkfifo(join(dir, 'fifo.json'));
    await symlink('/dev/zero', join(dir, 'zero.json'));
    expect(await refusal(digestIfPresent(join(dir, 'fifo.json'), { within: dir }))).toBe('it is a FIFO (named pipe), not a regular file');
    expect(await refusal(digestIfPresent(join(dir, 'zero.json'), { within: dir }))).toBe('it is a symbolic link out of the repository (to /dev/zero)');
    if (process.platform === 'linux') expect(await refusal(digestIfPresent('/proc/self/maps', { maxBytes: 10 }))).toMatch(/holds more than/);
  });

  it('absent is undefined; a dangling link, a loop and a folder are refusals', async () => {
    const dir = await repo();
    await symlink('nowhere.md', join(dir, 'dangling.md'));
    await symlink('b.md', join(dir, 'a.md'));
    await symlink('a.md', join(dir, 'b.md'));
    await mkdir(join(dir, 'folder.md'));
    expect(await readIfPresent(join(dir, 'absent.md'), { within: dir })).toBeUndefined();
    expect(await refusal(readIfPresent(join(dir, 'dangling.md'), { within: dir }))).toBe('it is a symbolic link to nothing');
    expect(await refusal(readIfPresent(join(dir, 'a.md'), { within: dir }))).toBe('it is a symbolic link loop');
    expect(await refusal(readIfPresent(join(dir, 'folder.md'), { within: dir }))).toBe('it is a directory, not a regular file');
  });
});

describe('special files are read without bound: every file a command reads from a repository', () => {
  const OPEN_ITEM = { '.the-loop/current': 'issue-7\n', 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_OPEN };
  const run = (argv: readonly string[], cwd: string, stdin?: string) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS, ...(stdin !== undefined ? { stdin } : {}) });

  it.each([
    ['the configuration as a FIFO', '.the-loop/harness-config.yaml', 'fifo', 'cannot read .the-loop/harness-config.yaml: it is a FIFO'],
    ['the configuration linked to /etc/passwd', '.the-loop/harness-config.yaml', '/etc/passwd', 'it is a symbolic link out of the repository (to /etc/passwd)'],
    ['the collaborators as a FIFO', '.the-loop/collaborators.yaml', 'fifo', 'cannot read .the-loop/collaborators.yaml: it is a FIFO'],
    ['the collaborators linked to /dev/zero', '.the-loop/collaborators.yaml', '/dev/zero', 'it is a symbolic link out of the repository (to /dev/zero)'],
  ])('check with %s: exit 2 naming it', async (_label, file, kind, message) => {
    const dir = await makeRepo(OPEN_ITEM);
    await mkdir(join(dir, '.the-loop'), { recursive: true });
    if (kind === 'fifo') mkfifo(join(dir, file));
    else await symlink(kind, join(dir, file));
    const out = await run(['check', 'issue-7'], dir);
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toContain(message);
  });

  it.each([
    ['a FIFO', 'fifo', 'it is a FIFO'],
    ['a link to /dev/zero', '/dev/zero', 'symbolic link out of the repository (to /dev/zero)'],
  ])('a graph state that is %s fails the gate with graph-state-invalid', async (_label, kind, message) => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), ...OPEN_ITEM, 'docs/specs/issue-7/tasks.md': '# Tasks\n\n- [x] done\n' });
    const path = join(dir, 'docs/specs/issue-7/graph-state.json');
    if (kind === 'fifo') mkfifo(path);
    else await symlink(kind, path);
    const out = await run(['check', 'issue-7', '--format', 'json'], dir);
    expect(out.code).toBe(1);
    const finding = JSON.parse(out.stdout).findings.find((f: { ruleId: string }) => f.ruleId === 'graph-state-invalid');
    expect(finding.message).toContain(message);
  });

  it('a graph state over its 4 MB cap is refused before it is parsed', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), ...OPEN_ITEM, 'docs/specs/issue-7/graph-state.json': `{"pad": "${'x'.repeat(5 * 1024 * 1024)}"}` });
    const out = await run(['graph', 'status', 'issue-7'], dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/graph-state\.json:1:1 +cannot be read: it is 5(\.0)? MB; files over 4 MB are refused/);
  });

  it('the Stop hook with .the-loop/current and git HEAD as FIFOs still decides', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_OPEN });
    mkfifo(join(dir, '.the-loop/current'));
    await mkdir(join(dir, '.git'));
    mkfifo(join(dir, '.git/HEAD'));
    const out = await run(['hook', 'Stop', '--harness', 'claude'], dir, await payload('claude', 'stop', { cwd: dir }));
    // The only open item is found without the pointer or the branch.
    expect(JSON.parse(out.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('issue-7') });
  });

  it('critic run --prompt-file that is a FIFO or a link to /dev/zero: exit 2, nothing spawned', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': 'reviews:\n  critics:\n    - name: c\n      command: /bin/false\n      args: ["{promptFile}"]\n' });
    mkfifo(join(dir, 'prompt.md'));
    await symlink('/dev/zero', join(dir, 'zero.md'));
    for (const [file, why] of [['prompt.md', 'it is a FIFO'], ['zero.md', 'it is a device']] as const) {
      const out = await run(['critic', 'run', 'c', '--prompt-file', file], dir);
      expect([out.code, out.stdout]).toEqual([2, '']);
      expect(out.stderr).toContain(why);
    }
  });

  it('hook stdin that never ends: a pinned Stop hook holds the stop at its deadline', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': `${graphConfig()}\nhooks:\n  stopDeadlineSeconds: 0.3\n`, ...OPEN_ITEM });
    const chunks: string[] = [];
    const out = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
    const never = new Readable({ read() {} });
    const code = await runCli(['hook', 'Stop', '--harness', 'claude', '--repo', dir], { cwd: dir, env: { NO_COLOR: '1' }, stdout: out, stderr: out, stdin: never, now: () => new Date(), adapters: BUILT_IN_ADAPTERS });
    never.destroy();
    expect(code).toBe(0);
    expect(chunks.join('')).toContain('"decision":"block"');
    expect(chunks.join('')).toContain('deciding took longer than 0.3 s');
  });
});
