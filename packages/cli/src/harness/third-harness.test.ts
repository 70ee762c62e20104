import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeAdapter } from '../test-support/acme-harness.js';
import { bundleDriver, sourcePath } from '../test-support/bundle-driver.js';
import { graphConfig, LOCKED, makeRepo, TASKS_DONE, TASKS_OPEN } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';
import { BUILT_IN_ADAPTERS } from './adapters.js';

// A third harness registered the way any caller registers one: in the adapter list handed to
// the CLI. Nothing in the CLI names it, yet its hooks answer, install and doctor work.
const ADAPTERS = [...BUILT_IN_ADAPTERS, acmeAdapter];

// What the installed acme hooks start: the same CLI, given the same three adapters.
const LAUNCHER = `
import { runCli } from ${JSON.stringify(sourcePath('main.ts'))};
import { BUILT_IN_ADAPTERS } from ${JSON.stringify(sourcePath('harness/adapters.ts'))};
import { acmeAdapter } from ${JSON.stringify(sourcePath('test-support/acme-harness.ts'))};
const env = { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, now: () => new Date() };
process.exitCode = await runCli(process.argv.slice(2), { ...env, adapters: [...BUILT_IN_ADAPTERS, acmeAdapter] });
`;

const ITEM = 'docs/specs/issue-7';
const openItem = (tasks = TASKS_OPEN) =>
  makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), '.the-loop/current': 'issue-7\n', [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: tasks });
const run = (argv: readonly string[], cwd: string, stdin?: string) => runInProcess(argv, { cwd, adapters: ADAPTERS, ...(stdin !== undefined ? { stdin } : {}) });
const acme = (event: string, dir: string, extra: Record<string, unknown> = {}) =>
  run(['hook', event, '--harness', 'acme'], dir, JSON.stringify({ event, session: 's-1', project: dir, ...extra }));

describe('a third harness, registered only in the adapter list', () => {
  let launcher: string;
  beforeAll(async () => {
    launcher = await bundleDriver('acme-launcher', LAUNCHER);
  }, 60_000);

  it('answers its hooks in its own dialect', async () => {
    const dir = await openItem();
    const stop = await acme('turn-end', dir);
    expect(stop.code).toBe(0);
    const reply = JSON.parse(stop.stdout) as Record<string, string>;
    expect(reply['action']).toBe('continue');
    expect(reply['message']).toContain('docs/specs/issue-7/tasks.md:4:1 tasks-incomplete');

    const context = JSON.parse((await acme('session-begin', dir)).stdout) as Record<string, string>;
    expect(context['context']).toContain('work item issue-7 (docs/specs/issue-7) is at node "implementation"');

    const saved = JSON.parse((await acme('file-saved', dir, { file: join(dir, ITEM, 'tasks.md') })).stdout) as Record<string, string>;
    expect(saved['context']).toContain('the-loop checked docs/specs/issue-7/tasks.md: 1 finding.');

    const done = await openItem(TASKS_DONE);
    expect(JSON.parse((await acme('turn-end', done)).stdout)).toEqual({ action: 'stop' });
  });

  it('refuses an event the harness does not send, naming the ones it does', async () => {
    const out = await acme('Stop', await openItem());
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('acme hook event must be one of turn-end, session-begin, file-saved; got "Stop"');
  });

  it('installs into its own settings file, idempotently, and uninstalls', async () => {
    const dir = await makeRepo({ '.acme/hooks.json': '{ "theme": "dark", "hooks": { "turn-end": "./mine.sh" } }\n' });
    const first = await run(['hooks', 'install', '--acme'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('acme   .acme/hooks.json  updated\n');
    const installed = await readFile(join(dir, '.acme/hooks.json'), 'utf8');
    expect(JSON.parse(installed)).toEqual({
      theme: 'dark',
      hooks: {
        'turn-end': 'node_modules/.bin/the-loop hook turn-end --harness acme',
        'session-begin': 'node_modules/.bin/the-loop hook session-begin --harness acme',
        'file-saved': 'node_modules/.bin/the-loop hook file-saved --harness acme',
      },
    });
    expect((await run(['hooks', 'install', '--acme'], dir)).stdout).toBe('acme   .acme/hooks.json  unchanged\n');
    expect(await readFile(join(dir, '.acme/hooks.json'), 'utf8')).toBe(installed);
    expect((await run(['hooks', 'install', '--acme', '--uninstall'], dir)).stdout).toBe('acme   .acme/hooks.json  removed\n');
    expect(JSON.parse(await readFile(join(dir, '.acme/hooks.json'), 'utf8'))).toEqual({ theme: 'dark', hooks: {} });
  });

  it('is checked by doctor: every canary blocked, the control let through', async () => {
    const dir = await makeRepo({});
    expect((await run(['hooks', 'install', '--acme', '--command', `${process.execPath} ${launcher}`], dir)).code).toBe(0);
    const out = await run(['doctor', '--format', 'json'], dir);
    const report = JSON.parse(out.stdout) as { ok: boolean; harnesses: { harness: string; installed: string; checks: { event: string; ok: boolean; detail: string }[] }[] };
    expect(report.harnesses.map((h) => [h.harness, h.installed])).toEqual([['claude', 'no'], ['cursor', 'no'], ['acme', 'yes'], ['git', 'no']]);
    expect(report.harnesses[2]?.checks).toEqual([
      { event: 'turn-end', ok: true, detail: 'blocks every canary, lets the control through' },
      { event: 'session-begin', ok: true, detail: 'injects the node and claim command' },
      { event: 'file-saved', ok: true, detail: "feeds back each canary's finding, silent on the control" },
    ]);
    expect(report.ok).toBe(true);
    expect(out.code).toBe(0);
  }, 120_000);

  it('names it in help, and only where it is registered', async () => {
    const dir = await makeRepo({});
    expect((await run(['hook', '--help'], dir)).stdout).toContain('  Acme Agent events:  turn-end, session-begin, file-saved\n');
    expect((await run(['hooks', 'install', '--help'], dir)).stdout).toContain('[--claude] [--cursor] [--acme] [--git]');
    const builtIn = await runInProcess(['hook', 'turn-end', '--harness', 'acme'], { cwd: dir, adapters: BUILT_IN_ADAPTERS, stdin: '{}' });
    expect(builtIn.code).toBe(1);
    expect(builtIn.stderr).toContain('--harness must be one of claude, cursor; got "acme"');
  });
});
