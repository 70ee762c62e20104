import { spawnSync } from 'node:child_process';
import { lstat, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { BIN, graphConfig, LOCKED, makeRepo, payload, runArgv, TASKS_OPEN } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';

// An open work item the Stop hook must hold, whatever machine-local state it finds.
async function openItem(): Promise<string> {
  return makeRepo({
    '.the-loop/harness-config.yaml': graphConfig({ cap: 2 }),
    '.the-loop/current': 'issue-7\n',
    'docs/specs/issue-7/requirements.md': LOCKED,
    'docs/specs/issue-7/tasks.md': TASKS_OPEN,
  });
}

async function stop(dir: string) {
  const out = await runInProcess(['hook', 'Stop', '--harness', 'claude'], { cwd: dir, adapters: BUILT_IN_ADAPTERS, stdin: await payload('claude', 'stop', { cwd: dir }) });
  expect(out.stderr).not.toMatch(/\n\s+at /);
  return { ...out, decision: out.code === 0 ? ((JSON.parse(out.stdout) as { decision?: string }).decision ?? 'allow') : `exit ${out.code}` };
}

const COUNTERS = '.the-loop/local/stop-counters.json';

describe('local state switches enforcement off', () => {
  it.each([
    ['a counters file that is not JSON', async (dir: string) => writeFile(join(dir, COUNTERS), '{')],
    ['a counters file of another shape', async (dir: string) => writeFile(join(dir, COUNTERS), '{"claude:issue-7": {"count": "many"}}')],
    ['a FIFO where the counters belong', async (dir: string) => void spawnSync('mkfifo', [join(dir, COUNTERS)])],
    ['a folder where the counters belong', async (dir: string) => mkdir(join(dir, COUNTERS, 'x'), { recursive: true })],
    ['a symbolic link to a file outside the repository', async (dir: string) => symlink(join(await makeRepo({ 'x.json': '{}' }), 'x.json'), join(dir, COUNTERS))],
    ['a FIFO where the lock belongs', async (dir: string) => void spawnSync('mkfifo', [join(dir, '.the-loop/local/.lock')])],
  ])('%s: discarded, and the hook keeps holding the stop up to the cap', async (_label, plant) => {
    const dir = await openItem();
    await mkdir(join(dir, '.the-loop/local'), { recursive: true });
    await plant(dir);
    const first = await stop(dir);
    expect(first.decision).toBe('block');
    // The counter was rebuilt as a file the-loop wrote, so the cap still ends the loop.
    expect((await lstat(join(dir, COUNTERS))).isFile()).toBe(true);
    expect(JSON.parse(await readFile(join(dir, COUNTERS), 'utf8'))['claude:issue-7']).toMatchObject({ count: 1 });
    expect([(await stop(dir)).decision, (await stop(dir)).decision]).toEqual(['block', 'allow']);
  });

  it('names a discarded counters file on stderr', async () => {
    const dir = await openItem();
    await mkdir(join(dir, '.the-loop/local'), { recursive: true });
    await writeFile(join(dir, COUNTERS), '{');
    expect((await stop(dir)).stderr).toContain('.the-loop/local/stop-counters.json is not valid JSON; discarded, it is rebuilt');
  });

  it.each([
    ['a file', async (dir: string) => writeFile(join(dir, '.the-loop/local'), 'not a folder')],
    ['a FIFO', async (dir: string) => void spawnSync('mkfifo', [join(dir, '.the-loop/local')])],
    ['a link out of the repository', async (dir: string) => symlink(await makeRepo({}), join(dir, '.the-loop/local'))],
  ])('.the-loop/local that is %s is replaced by the folder, never followed', async (_label, plant) => {
    const dir = await openItem();
    await plant(dir);
    expect((await stop(dir)).decision).toBe('block');
    expect((await lstat(join(dir, '.the-loop/local'))).isDirectory()).toBe(true);
  });

  it('when no counter can be kept at all, holds a first stop and lets through one the harness is already continuing', async () => {
    const dir = await openItem();
    // A live holder of the lock (this process) that never lets go: the hook cannot count.
    await mkdir(join(dir, '.the-loop/local'), { recursive: true });
    await writeFile(join(dir, '.the-loop/local/.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    await writeFile(join(dir, '.the-loop/harness-config.yaml'), `${graphConfig({ cap: 2 })}\n  stopDeadlineSeconds: 0.5\n`);
    const first = await runInProcess(['hook', 'Stop', '--harness', 'claude'], { cwd: dir, adapters: BUILT_IN_ADAPTERS, stdin: await payload('claude', 'stop', { cwd: dir }) });
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('deciding took longer than 0.5 s') });
    expect(first.stderr).toContain('the stop counter cannot be kept either');
    const continuing = await runInProcess(['hook', 'Stop', '--harness', 'claude'], { cwd: dir, adapters: BUILT_IN_ADAPTERS, stdin: await payload('claude', 'stop', { cwd: dir, stop_hook_active: true }) });
    expect(JSON.parse(continuing.stdout)).toEqual({});
    await rm(join(dir, '.the-loop/local/.lock'));
  });
});

describe('what recording a stop and writing the caches loads (decision 197)', () => {
  it('a blocked stop is recorded, and a check writes its cache entries, without node:crypto or the promise file API', async () => {
    const dir = await openItem();
    const preload = join(dir, 'loaded.cjs');
    const loaded = join(dir, 'loaded.json');
    await writeFile(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));\n`);
    const modules = async () => JSON.parse(await readFile(loaded, 'utf8')) as string[];
    const stopped = await runArgv([process.execPath, '-r', preload, BIN, 'hook', 'Stop', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'stop', { cwd: dir }) });
    expect(JSON.parse(stopped.stdout)).toMatchObject({ decision: 'block' });
    expect(JSON.parse(await readFile(join(dir, COUNTERS), 'utf8'))['claude:issue-7']).toMatchObject({ count: 1 });
    const afterStop = await modules();
    // The hook's own evaluation wrote the caches' entries too.
    const checked = await runArgv([process.execPath, '-r', preload, BIN, 'check', 'issue-7', '--repo', dir, '--format', 'json'], { cwd: dir });
    expect(checked.code).toBe(1);
    const afterCheck = await modules();
    for (const list of [afterStop, afterCheck]) {
      expect(list).not.toContain('NativeModule crypto');
      expect(list).not.toContain('NativeModule internal/fs/promises');
    }
    expect((await lstat(join(dir, '.the-loop/local/cache'))).isDirectory()).toBe(true);
  });
});
