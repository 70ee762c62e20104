import { describe, expect, it } from 'vitest';
import { graphConfig, LOCKED, makeRepo, runBuiltCli, TASKS_DONE, TASKS_OPEN } from '../test-support/cli.js';

describe('report over enough work items to share them between threads', () => {
  it('reports every item once, in order, with the same verdicts a single thread gives', async () => {
    const files: Record<string, string> = { '.the-loop/harness-config.yaml': graphConfig() };
    const ids = Array.from({ length: 450 }, (_, i) => `item-${String(i).padStart(3, '0')}`);
    ids.forEach((id, i) => {
      files[`docs/specs/${id}/requirements.md`] = LOCKED;
      files[`docs/specs/${id}/tasks.md`] = i % 3 === 0 ? TASKS_OPEN : TASKS_DONE;
    });
    const dir = await makeRepo(files);
    const out = await runBuiltCli(['report', '--format', 'json'], { cwd: dir });
    expect(out.code).toBe(1);
    const report = JSON.parse(out.stdout) as { workItems: number; ok: boolean; findingsByRule: Record<string, number>; items: { workItem: string; ok: boolean }[] };
    expect(report.workItems).toBe(450);
    expect(report.items.map((item) => item.workItem)).toEqual(ids);
    expect(report.items.filter((item) => !item.ok).map((item) => item.workItem)).toEqual(ids.filter((_, i) => i % 3 === 0));
    expect(report.findingsByRule['tasks-incomplete']).toBe(150);
  }, 60_000);
});
