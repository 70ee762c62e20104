import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphConfig, LOCKED, makeRepo, runBuiltCli, runCli, TASKS_DONE, TASKS_OPEN } from '../test-support/cli.js';

// About 25 KB of requirements an item, as real ones run: parsing 150 of them is long enough for
// the report to share them between threads.
const BODY = Array.from(
  { length: 100 },
  (_, i) => `## Part ${i}\n\nThe *service* keeps \`token ${i}\` on the server ([policy](https://example.test/${i})); every **request** is checked.\n\n| field | rule |\n|---|---|\n| f${i} | kept |\n\n- [x] one\n  - nested\n`,
).join('\n');

describe('report over enough work items to share them between threads', () => {
  const ids = Array.from({ length: 150 }, (_, i) => `item-${String(i).padStart(3, '0')}`);
  let dir: string;
  beforeAll(async () => {
    const files: Record<string, string> = { '.the-loop/harness-config.yaml': graphConfig() };
    ids.forEach((id, i) => {
      files[`docs/specs/${id}/requirements.md`] = `${LOCKED}\n${BODY}`;
      files[`docs/specs/${id}/tasks.md`] = i % 3 === 0 ? TASKS_OPEN : TASKS_DONE;
    });
    dir = await makeRepo(files);
  });

  it('reports every item once, in order, with the same verdicts a single thread gives', async () => {
    const out = await runBuiltCli(['report', '--format', 'json'], { cwd: dir });
    expect(out.code).toBe(1);
    const report = JSON.parse(out.stdout) as { workItems: number; ok: boolean; findingsByRule: Record<string, number>; items: { workItem: string; ok: boolean }[] };
    expect(report.workItems).toBe(150);
    expect(report.items.map((item) => item.workItem)).toEqual(ids);
    expect(report.items.filter((item) => !item.ok).map((item) => item.workItem)).toEqual(ids.filter((_, i) => i % 3 === 0));
    expect(report.findingsByRule['tasks-incomplete']).toBe(50);
    // From source the report runs on one thread: the built CLI's threads print the same bytes.
    const cold = await runBuiltCli(['report', '--format', 'json', '--no-cache'], { cwd: dir });
    expect(cold.stdout).toBe(out.stdout);
    expect((await runCli(['report', '--format', 'json', '--no-cache'], { cwd: dir })).stdout).toBe(out.stdout);
  }, 60_000);

  it('fails, printing no report, when a worker thread dies', async () => {
    // Loaded into every thread the process starts: each worker ends at once with code 3.
    const preload = join(await mkdtemp(join(tmpdir(), 'the-loop-preload-')), 'worker-dies.cjs');
    await writeFile(preload, "if (!require('node:worker_threads').isMainThread) process.exit(3);\n");
    const out = await runBuiltCli(['report', '--format', 'json', '--no-cache'], { cwd: dir, env: { NODE_OPTIONS: `--require ${preload}` } });
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toContain('a report worker exited with code 3 before finishing its work');
  }, 60_000);
});

describe('report --format json', () => {
  it('prints exactly what JSON.stringify gives, a line separator in a finding kept as written', async () => {
    // U+2028 ends a line to a multiline pattern but not to JSON, which leaves it unescaped.
    const dir = await makeRepo({
      '.the-loop/harness-config.yaml': graphConfig(),
      'docs/specs/item-1/requirements.md': LOCKED,
      'docs/specs/item-1/tasks.md': '# Tasks\n\n- [ ] Test the\u2028greeting\n',
    });
    const out = await runCli(['report', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(out.stdout) as { items: { findings: { message: string }[] }[] };
    expect(report.items[0]?.findings.map((f) => f.message)).toContain('Task not done: "Test the\u2028greeting" ([ ]).');
    expect(out.stdout).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });
});
