// The baseline: a drifted repository records today's findings, and from then on only new ones
// fail — in check, report, the Stop hook and the pre-push gate; a grown baseline is reported
// under `check --changed-from`. Twelve items of the retrofit corpus are the drifted repository.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '@the-loop/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, graphConfig, LOCKED, makeRepo, payload, runArgv, runBuiltCli, runCli, TASKS_OPEN, writeFiles } from '../test-support/cli.js';

const CORPUS = fileURLToPath(new URL('../../../../test-fixtures/retrofit-34', import.meta.url));
const TASKS = 'docs/specs/issue-23/tasks.md';
const ITEMS = ['issue-3', 'issue-8', 'issue-17', 'issue-23', 'issue-26', 'issue-30', 'issue-37', 'issue-46', 'issue-53', 'issue-56', 'issue-58', 'issue-61'];

type Finding = Diagnostic;
interface CheckSet {
  ok: boolean;
  failing: string[];
  results: { workItem: string; ok: boolean; currentNode: string | null; findings: Finding[] }[];
  baselineGrown?: Finding[];
}

const run = (args: string[], cwd: string, input?: string) => runCli(args, { cwd, ...(input === undefined ? {} : { input }) });
const json = async <T>(args: string[], cwd: string): Promise<{ code: number; doc: T }> => {
  const result = await run([...args, '--format', 'json'], cwd);
  return { code: result.code, doc: JSON.parse(result.stdout) as T };
};
const fresh = (set: CheckSet) => set.results.flatMap((r) => r.findings.filter((f) => f.baselined !== true && f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.ruleId}`));

describe('the-loop baseline on a drifted corpus', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'the-loop-baseline-'));
    // A third of the corpus keeps the test quick and still holds every kind of drift it has.
    for (const id of ITEMS) await cp(join(CORPUS, 'docs/specs', id), join(repo, 'docs/specs', id), { recursive: true });
    await git(repo, ['init', '-q']);
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'the drifted corpus']);
  });

  it('records every finding of every work item, and the corpus passes afterwards with every finding marked baselined', async () => {
    const before = await json<CheckSet>(['check', '--all'], repo);
    expect(before.code).toBe(1);
    expect(before.doc.failing).toEqual(ITEMS);

    const written = await json<{ findings: number; workItems: number; added: number }>(['baseline'], repo);
    expect(written.code).toBe(0);
    const total = before.doc.results.reduce((sum, r) => sum + r.findings.length, 0);
    expect(written.doc).toMatchObject({ file: '.the-loop/baseline.json', workItems: ITEMS.length, findings: total, added: total, removed: 0 });

    // Under the default --fail-on unmet, the stricter of the two: every error must be accepted.
    const after = await json<CheckSet>(['check', '--all'], repo);
    expect(after.code).toBe(0);
    expect(after.doc.failing).toEqual([]);
    expect(after.doc.results.flatMap((r) => r.findings).every((f) => f.baselined === true)).toBe(true);
    // Where each work item stands is unchanged: a baselined finding is accepted, not resolved.
    expect(after.doc.results.map((r) => r.currentNode)).toEqual(before.doc.results.map((r) => r.currentNode));
  });

  it('refuses to overwrite a baseline without --update', async () => {
    const text = await readFile(join(repo, '.the-loop/baseline.json'), 'utf8');
    const again = await run(['baseline'], repo);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('.the-loop/baseline.json exists; run `the-loop baseline --update`');
    expect(await readFile(join(repo, '.the-loop/baseline.json'), 'utf8')).toBe(text);
  });

  it('fails on one new violation only, though the lines above the baselined ones moved', async () => {
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'baseline']);
    const tasks = await readFile(join(repo, TASKS), 'utf8');
    // Two lines added above every baselined task, and one new unticked task at the end.
    await writeFile(join(repo, TASKS), `${tasks.replace('## Tasks\n', '## Tasks\n\nOrdered by risk.\n')}- [ ] Alert on a failing endpoint\n`);

    const { code, doc } = await json<CheckSet>(['check', '--all'], repo);
    expect(code).toBe(1);
    expect(doc.failing).toEqual(['issue-23']);
    expect(fresh(doc)).toEqual([`${TASKS}:20 tasks-incomplete`]);
    const table = await run(['check', 'issue-23'], repo);
    expect(table.stdout).toMatch(/tasks\.md:14:1 {2}tasks-incomplete {2}Task not done: "Refuse private and link-local addresses" \(\[ \]\)\. {2}\(baselined\)/);
    expect(table.stdout).toMatch(/tasks\.md:20:1 {2}tasks-incomplete {2}Task not done: "Alert on a failing endpoint" \(\[ \]\)\.$/m);
    const report = await json<{ ok: boolean; items: { workItem: string; ok: boolean }[] }>(['report'], repo);
    expect(report.code).toBe(1);
    expect(report.doc.items.filter((i) => !i.ok).map((i) => i.workItem)).toEqual(['issue-23']);
  });

  it('reports baseline-grown under --changed-from for an entry added since REF, at its line, and fails', async () => {
    await git(repo, ['checkout', '-q', '-b', 'feature']);
    const updated = await json<{ added: number; removed: number }>(['baseline', '--update'], repo);
    expect(updated.doc).toMatchObject({ added: 1, removed: 0 });
    await git(repo, ['commit', '-q', '-am', 'accept the new task']);

    const { code, doc } = await json<CheckSet>(['check', '--changed-from', 'main', '--fail-on', 'block'], repo);
    expect(code).toBe(1);
    expect(doc.failing).toEqual([]);
    expect(doc.ok).toBe(false);
    const text = await readFile(join(repo, '.the-loop/baseline.json'), 'utf8');
    const entryLine = text.split('\n').findIndex((line) => line.includes('"message": "Task not done: \\"Alert on a failing endpoint\\"')) - 4 + 1;
    expect(doc.baselineGrown).toEqual([
      expect.objectContaining({ ruleId: 'baseline-grown', severity: 'error', file: '.the-loop/baseline.json', line: entryLine, message: expect.stringContaining(`tasks-incomplete in ${TASKS} ("Task not done: "Alert on a failing endpoint" ([ ]).")`) }),
    ]);
    const table = await run(['check', '--changed-from', 'main'], repo);
    expect(table.stdout).toContain('The baseline grew: 1 entry accepted since the compared commit');
    expect(table.stdout).toMatch(/\.the-loop\/baseline\.json:\d+:\d+ {2}baseline-grown {2}The baseline accepts tasks-incomplete/);

    // A baseline that shrinks is silent: tick the task, update, and nothing grew since main.
    await writeFile(join(repo, TASKS), (await readFile(join(repo, TASKS), 'utf8')).replace('- [ ] Refuse private', '- [x] Refuse private').replace('- [ ] Alert on', '- [x] Alert on'));
    expect((await json<{ removed: number; added: number }>(['baseline', '--update'], repo)).doc).toMatchObject({ added: 0, removed: 2 });
    const shrunk = await json<CheckSet>(['check', '--changed-from', 'main', '--fail-on', 'block'], repo);
    expect(shrunk.doc.baselineGrown).toEqual([]);
    expect(shrunk.code).toBe(0);
  });

  it('places a grown entry at its line in the file as it is laid out, not as the-loop would write it', async () => {
    const dir = await makeRepo({ 'docs/specs/a/tasks.md': '# Tasks\n\n- [ ] one\n- [ ] two\n' });
    await git(dir, ['init', '-q', '-b', 'main']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'drift']);
    await run(['baseline'], dir);
    // Kept by hand on one line per entry, after a line of its own for the header.
    const doc = JSON.parse(await readFile(join(dir, '.the-loop/baseline.json'), 'utf8')) as { findings: unknown[] };
    await writeFile(join(dir, '.the-loop/baseline.json'), `{"schemaVersion": 1,\n"findings": [\n${doc.findings.map((entry) => JSON.stringify(entry)).join(',\n')}\n]}\n`);
    const { code, doc: set } = await json<CheckSet>(['check', '--changed-from', 'main'], dir);
    expect(code).toBe(1);
    expect(set.baselineGrown?.map((d) => `${d.line}:${d.column}`)).toEqual(doc.findings.map((_, index) => `${index + 3}:11`));
  });

  it('treats a broken baseline as a configuration error naming its line, never as an empty one', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'the-loop-baseline-'));
    await writeFiles(broken, { '.the-loop/baseline.json': '{\n  "schemaVersion": 1,\n  "findings": [{"ruleId": "tasks-incomplete"}]\n}\n', 'docs/specs/a/tasks.md': '- [ ] x\n' });
    const result = await run(['check', 'a'], broken);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\.the-loop\/baseline\.json is invalid.*\n {2}\.the-loop\/baseline\.json:3:\d+ {2}findings\[0\]: missing key "file"/);
  });
});

describe('the-loop baseline over many work items', () => {
  it('writes from worker threads the file one thread writes, and none when a worker dies', async () => {
    // About 25 KB of requirements an item with findings in each, as in the set's check: long
    // enough for workers to take chunks; a baseline never reads the artifact cache, so the built
    // CLI starts its workers at once.
    const body = Array.from({ length: 100 }, (_, i) => `## Part ${i}\n\nThe *service* keeps \`token ${i}\` on the server.\n\n| field | rule |\n|---|---|\n| f${i} | kept |\n\n- [ ] open ${i}\n`).join('\n');
    const files: Record<string, string> = { '.the-loop/harness-config.yaml': graphConfig() };
    for (let n = 0; n < 150; n += 1) {
      const id = `item-${String(n).padStart(3, '0')}`;
      files[`docs/specs/${id}/requirements.md`] = `${LOCKED}\n${body}`;
      files[`docs/specs/${id}/tasks.md`] = n % 3 === 0 ? TASKS_OPEN : `${TASKS_OPEN}- [ ] item ${n}\n`;
    }
    const one = await makeRepo(files);
    const threads = await makeRepo(files);
    // From source a set is evaluated on one thread.
    const single = await run(['baseline', '--format', 'json'], one);
    const shared = await runBuiltCli(['baseline', '--format', 'json'], { cwd: threads });
    expect([shared.code, shared.stdout]).toEqual([single.code, single.stdout]);
    expect(JSON.parse(shared.stdout)).toMatchObject({ workItems: 150, findings: expect.any(Number) });
    expect(JSON.parse(shared.stdout).findings).toBeGreaterThan(150);
    const written = await readFile(join(threads, '.the-loop/baseline.json'), 'utf8');
    expect(written).toBe(await readFile(join(one, '.the-loop/baseline.json'), 'utf8'));
    // The report applies it on every thread, each worker through the counts the command read.
    const applied = await runBuiltCli(['report', '--format', 'json', '--no-cache'], { cwd: threads });
    expect([applied.code, applied.stdout]).toEqual([0, (await run(['report', '--format', 'json', '--no-cache'], one)).stdout]);
    expect((JSON.parse(applied.stdout) as { items: { ok: boolean }[] }).items.every((item) => item.ok)).toBe(true);

    const preload = join(await mkdtemp(join(tmpdir(), 'the-loop-preload-')), 'worker-dies.cjs');
    await writeFile(preload, "if (!require('node:worker_threads').isMainThread) process.exit(3);\n");
    const died = await runBuiltCli(['baseline', '--update', '--format', 'json'], { cwd: threads, env: { NODE_OPTIONS: `--require ${preload}` } });
    expect([died.code, died.stdout]).toEqual([2, '']);
    expect(died.stderr).toContain('a baseline worker exited with code 3 before finishing its work');
    // The baseline it would have rewritten is left as it was.
    expect(await readFile(join(threads, '.the-loop/baseline.json'), 'utf8')).toBe(written);
  }, 60_000);
});

describe('the hooks honour the baseline', () => {
  it('the Stop hook and the pre-push gate let a committed, pushed baselined finding through and stop a new one', async () => {
    const remote = await mkdtemp(join(tmpdir(), 'the-loop-remote-'));
    await git(remote, ['init', '-q', '--bare']);
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-3/requirements.md': LOCKED, 'docs/specs/issue-3/tasks.md': TASKS_OPEN });
    await git(dir, ['init', '-q']);
    await git(dir, ['remote', 'add', 'origin', remote]);
    expect((await runBuiltCli(['hooks', 'install', '--git', '--command', `node ${BIN}`], { cwd: dir })).code).toBe(0);
    const stop = async () => JSON.parse((await run(['hook', 'Stop', '--harness', 'claude', '--work-item', 'issue-3'], dir, await payload('claude', 'stop', { cwd: dir }))).stdout) as { decision?: string; reason?: string };
    expect((await stop()).decision).toBe('block');
    // A baseline written in the session is not honoured by the Stop hook until it is committed:
    // an agent cannot accept its own findings to end its turn.
    expect((await run(['baseline'], dir)).code).toBe(0);
    const uncommitted = await stop();
    expect(uncommitted.decision).toBe('block');
    expect(uncommitted.reason).toContain('tasks.md:4:1 tasks-incomplete');
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'adopt with a baseline']);
    expect(await stop()).toEqual({});
    // The first push brings a baseline nothing pushed before accepted: a person pushes it past the gate.
    expect((await runArgv(['git', 'push', '-q', 'origin', 'main'], { cwd: dir })).stderr).toContain('baseline-grown');
    expect((await runArgv(['git', 'push', '-q', '--no-verify', 'origin', 'main'], { cwd: dir })).code).toBe(0);
    await writeFiles(dir, { 'docs/specs/issue-3/tasks.md': `${TASKS_OPEN}- [x] Greet in French\n` });
    await git(dir, ['commit', '-q', '-am', 'one more task, done']);
    const accepted = await runArgv(['git', 'push', '-q', 'origin', 'main'], { cwd: dir });
    expect(accepted.stderr).toContain('1 work item checked, none blocks');
    expect(accepted.code).toBe(0);

    await writeFiles(dir, { 'docs/specs/issue-3/tasks.md': `${TASKS_OPEN}- [x] Greet in French\n- [ ] Document the greeting\n` });
    const blocked = await stop();
    expect(blocked.decision).toBe('block');
    expect(blocked.reason).toContain('tasks.md:6:1 tasks-incomplete');
    expect(blocked.reason).not.toContain('tasks.md:4:1');
    await git(dir, ['commit', '-q', '-am', 'one more task']);
    const refused = await runArgv(['git', 'push', '-q', 'origin', 'main'], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('docs/specs/issue-3/tasks.md:6:1  tasks-incomplete');
    expect(refused.stderr).not.toContain('tasks.md:4:1');
  });
  it('the Stop hook takes a committed baseline from the note of what git said while HEAD and the file stay, and asks git again when either moves', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-3/requirements.md': LOCKED, 'docs/specs/issue-3/tasks.md': TASKS_OPEN });
    await git(dir, ['init', '-q']);
    expect((await run(['baseline'], dir)).code).toBe(0);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'adopt with a baseline']);
    const input = await payload('claude', 'stop', { cwd: dir });
    const stop = async (env: NodeJS.ProcessEnv = {}) => JSON.parse((await runBuiltCli(['hook', 'Stop', '--harness', 'claude', '--work-item', 'issue-3'], { cwd: dir, input, env })).stdout) as { decision?: string; reason?: string };
    // With no git to ask and no note, nothing counts as committed: the stop is held.
    const noGit = { PATH: join(dir, 'no-such-folder') };
    expect((await stop(noGit)).decision).toBe('block');
    expect(await stop()).toEqual({});
    // The note answers for git while HEAD names the same commit and the file holds the same bytes.
    expect(await stop(noGit)).toEqual({});
    // A baseline grown in the working tree is other bytes: git is asked, and the growth is not honoured.
    await writeFiles(dir, { 'docs/specs/issue-3/tasks.md': `${TASKS_OPEN}- [ ] Greet in French\n` });
    expect((await run(['baseline', '--update'], dir)).code).toBe(0);
    expect((await stop(noGit)).decision).toBe('block');
    const grown = await stop();
    expect(grown.decision).toBe('block');
    expect(grown.reason).toContain('tasks.md:5:1 tasks-incomplete');
    expect(grown.reason).not.toContain('tasks.md:4:1');
    // Committed, it is HEAD's: a new commit has no note until git has said so.
    await git(dir, ['commit', '-q', '-am', 'accept the French greeting for now']);
    expect((await stop(noGit)).decision).toBe('block');
    expect(await stop()).toEqual({});
    expect(await stop(noGit)).toEqual({});
  });
});
