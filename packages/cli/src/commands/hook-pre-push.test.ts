import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, graphConfig, LOCKED, makeRepo, runArgv, runCli, TASKS_DONE, TASKS_OPEN, writeFiles } from '../test-support/cli.js';

const ITEM = 'docs/specs/issue-3';

async function setUp(extra: Record<string, string> = {}) {
  const remote = await mkdtemp(join(tmpdir(), 'the-loop-remote-'));
  await git(remote, ['init', '-q', '--bare']);
  const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'README.md': '# Demo\n', ...extra });
  await git(dir, ['init', '-q']);
  await git(dir, ['remote', 'add', 'origin', remote]);
  const install = await runCli(['hooks', 'install', '--git', '--command', `node ${BIN}`], { cwd: dir });
  expect(install.code).toBe(0);
  return { dir, remote };
}

const push = (dir: string, ...args: string[]) => runArgv(['git', 'push', '-q', 'origin', ...args], { cwd: dir });
const remoteHas = async (remote: string, ref: string) => (await git(remote, ['for-each-ref', '--format=%(refname)'])).includes(ref);

describe('the installed pre-push hook (real git, a bare remote)', () => {
  it('refuses a push that touches a work item with an unticked task, and lets it through once ticked', async () => {
    const { dir, remote } = await setUp({ [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: TASKS_OPEN });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'work item with an open task']);

    const refused = await push(dir, 'main');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('the-loop pre-push: issue-3');
    expect(refused.stderr).toContain('docs/specs/issue-3/tasks.md:4:1  tasks-incomplete');
    expect(await remoteHas(remote, 'refs/heads/main')).toBe(false);

    // Ticking the task in the working tree alone is not enough: the gate reads the pushed commit.
    await writeFiles(dir, { [`${ITEM}/tasks.md`]: TASKS_DONE });
    expect((await push(dir, 'main')).code).not.toBe(0);

    await git(dir, ['commit', '-q', '-am', 'tick the task']);
    const accepted = await push(dir, 'main');
    expect(accepted.stderr).toContain('1 work item checked, none blocks');
    expect(accepted.code).toBe(0);
    expect(await remoteHas(remote, 'refs/heads/main')).toBe(true);
  });

  it('checks only what a push to an existing branch adds, and ignores files beside the work items', async () => {
    const { dir } = await setUp({ [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: TASKS_DONE });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'done item']);
    expect((await push(dir, 'main')).code).toBe(0);
    await writeFiles(dir, { 'docs/specs/README.md': '# Specs\n- [ ] not a task of any work item\n', 'src/app.ts': 'export {};\n' });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'index and code']);
    const out = await push(dir, 'main');
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('the push touches no work item');
  });

  it('lets through a push that deletes the last work item, spec root and all', async () => {
    const { dir, remote } = await setUp({ [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: TASKS_DONE });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'done item']);
    expect((await push(dir, 'main')).code).toBe(0);
    await git(dir, ['rm', '-q', '-r', 'docs']);
    await git(dir, ['commit', '-q', '-m', 'drop the specs']);
    const out = await push(dir, 'main');
    expect(out.stderr).toContain('the push touches no work item');
    expect(out.code).toBe(0);
    expect((await git(remote, ['ls-tree', '-r', '--name-only', 'main'])).includes('docs/')).toBe(false);
  });

  it('runs a chained user hook with the same stdin after the gate passes', async () => {
    const { dir } = await setUp();
    // Installed before: the user's own hook is kept and chained.
    await writeFiles(dir, { '.git/hooks/pre-push': '#!/bin/sh\ncat > "$(git rev-parse --git-dir)/user-hook-stdin"\necho "remote=$1"\n' });
    await runCli(['hooks', 'install', '--git', '--command', `node ${BIN}`], { cwd: dir });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'readme']);
    const out = await push(dir, 'main');
    expect(out.code).toBe(0);
    expect(await readFile(join(dir, '.git/user-hook-stdin'), 'utf8')).toMatch(/^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}\n$/);
  });

  it('refuses the push (exit 2) when the chained hook is killed before it exits', async () => {
    const dir = await makeRepo({ 'hooks/pre-push.pre-the-loop': '#!/bin/sh\nkill -KILL $$\n' });
    await git(dir, ['init', '-q']);
    const out = await runCli(['hook', 'pre-push', '--chain', 'hooks/pre-push.pre-the-loop', 'origin', 'url'], { cwd: dir, input: '' });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('the chained hook hooks/pre-push.pre-the-loop: killed by SIGKILL');
  });

  it('fails closed: a configuration that does not parse in the pushed commit refuses the push', async () => {
    const { dir, remote } = await setUp({ [`${ITEM}/tasks.md`]: TASKS_DONE });
    await writeFiles(dir, { '.the-loop/harness-config.yaml': 'workflow: [broken' });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'broken config']);
    const out = await push(dir, 'main');
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('harness-config.yaml');
    expect(await remoteHas(remote, 'refs/heads/main')).toBe(false);
  });

  it('refuses a push whose baseline accepts findings the commits it grows from did not: a first push, a new branch, an existing one', async () => {
    const { dir, remote } = await setUp({ [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: TASKS_OPEN });
    expect((await runCli(['baseline'], { cwd: dir })).code).toBe(0);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'adopt with a baseline']);
    const main = (await git(dir, ['rev-parse', 'HEAD'])).trim();

    // Nothing was pushed before, so every entry is new: a person reviews it and pushes past the gate.
    const first = await push(dir, 'main');
    expect(first.code).not.toBe(0);
    expect(first.stderr).toContain('the-loop pre-push: .the-loop/baseline.json (refs/heads/main → refs/heads/main) accepts findings that were not accepted before');
    expect(first.stderr).toContain('.the-loop/baseline.json:5:17  baseline-grown  The baseline accepts tasks-incomplete in docs/specs/issue-3/tasks.md (');
    expect(first.stderr).toContain('not accepted at any commit already pushed (the push shares no history with origin).');
    expect(await remoteHas(remote, 'refs/heads/main')).toBe(false);
    expect((await push(dir, '--no-verify', 'main')).code).toBe(0);

    // A new branch: an agent accepts its own open task in the baseline to get its work item through.
    await git(dir, ['checkout', '-q', '-b', 'feature']);
    await writeFiles(dir, { 'docs/specs/issue-4/requirements.md': LOCKED, 'docs/specs/issue-4/tasks.md': TASKS_OPEN });
    expect((await runCli(['baseline', '--update'], { cwd: dir })).code).toBe(0);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'a second work item, its open task accepted']);
    const grown = await push(dir, 'feature');
    expect(grown.code).not.toBe(0);
    expect(grown.stderr).toContain(`in docs/specs/issue-4/tasks.md`);
    expect(grown.stderr).toContain(`not accepted at the commit it grows from, already pushed (${main.slice(0, 12)})`);
    expect(grown.stderr).not.toContain('in docs/specs/issue-3/tasks.md');
    expect(await remoteHas(remote, 'refs/heads/feature')).toBe(false);

    // Doing the task instead, the baseline shrinks back and the branch goes up.
    await writeFiles(dir, { 'docs/specs/issue-4/tasks.md': TASKS_DONE });
    expect((await runCli(['baseline', '--update'], { cwd: dir })).code).toBe(0);
    await git(dir, ['commit', '-q', '-am', 'do the task']);
    const done = await push(dir, 'feature');
    expect(done.stderr).not.toContain('baseline-grown');
    expect(done.code).toBe(0);

    // Meanwhile main accepted more on purpose (reviewed, pushed past the gate); merging main brings
    // that along, while the branch's own growth on an existing remote branch is refused.
    await git(dir, ['checkout', '-q', 'main']);
    await writeFiles(dir, { [`${ITEM}/tasks.md`]: `${TASKS_OPEN}- [ ] Document the greeting\n` });
    expect((await runCli(['baseline', '--update'], { cwd: dir })).code).toBe(0);
    await git(dir, ['commit', '-q', '-am', 'accept one more open task, reviewed']);
    expect((await push(dir, '--no-verify', 'main')).code).toBe(0);
    await git(dir, ['checkout', '-q', 'feature']);
    await git(dir, ['merge', '-q', '--no-edit', 'main']);
    const merged = await push(dir, 'feature');
    expect(merged.stderr).not.toContain('baseline-grown');
    expect(merged.code).toBe(0);
    const pushedTip = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await writeFiles(dir, { 'docs/specs/issue-4/tasks.md': TASKS_OPEN });
    expect((await runCli(['baseline', '--update'], { cwd: dir })).code).toBe(0);
    await git(dir, ['commit', '-q', '-am', 'reopen the task and accept it']);
    const again = await push(dir, 'feature');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`not accepted at the commit it grows from, already pushed (${pushedTip.slice(0, 12)})`);
    expect((await git(remote, ['rev-parse', 'feature'])).trim()).toBe(pushedTip);
  });

  it('lets a grown baseline through, reported, when baseline-grown is configured as a warning', async () => {
    const config = `${graphConfig()}\nrules:\n  baseline-grown: warn\n`;
    const { dir, remote } = await setUp({ '.the-loop/harness-config.yaml': config, [`${ITEM}/requirements.md`]: LOCKED, [`${ITEM}/tasks.md`]: TASKS_OPEN });
    expect((await runCli(['baseline'], { cwd: dir })).code).toBe(0);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'adopt with a baseline']);
    const out = await push(dir, 'main');
    expect(out.stderr).toContain('accepts findings that were not accepted before (warnings: the push goes on)');
    expect(out.code).toBe(0);
    expect(await remoteHas(remote, 'refs/heads/main')).toBe(true);
  });

  it('fails closed on input that is not git pre-push lines', async () => {
    const dir = await makeRepo({});
    await git(dir, ['init', '-q']);
    const out = await runCli(['hook', 'pre-push', 'origin', 'url'], { cwd: dir, input: 'garbage\n' });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('pre-push input line 1');
  });
});
