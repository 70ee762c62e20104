// The baseline cache through `check <id>` run in process, on a copy of the retrofit corpus with a
// baseline of its findings: one work item checked through the cache is the item checked with the
// whole baseline read, whatever the cache holds.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyRetrofit, runCli, tempDir, writeFiles } from '../test-support/cli.js';
import { BASELINE_FILE } from '@the-loop/core';
import { loadBaselineCountsFor } from '../gate/baseline-counts.js';
import { baselineDigest } from '../workspace/baseline-file.js';
import { openRepo } from '../workspace/repo.js';
import { withCache } from './artifact-cache.js';
import { BASELINE_CACHE_DIR } from './baseline-cache.js';

const ITEMS = ['issue-3', 'issue-23', 'issue-61'];
async function baselined(): Promise<string> {
  const root = await tempDir('baseline-cache');
  await copyRetrofit(root, ITEMS);
  expect((await runCli(['baseline'], { cwd: root })).code).toBe(0);
  return root;
}

const check = (root: string, id: string, ...extra: string[]) => runCli(['check', id, '--format', 'json', ...extra], { cwd: root });
const entries = async (root: string) => (await readdir(join(root, BASELINE_CACHE_DIR), { recursive: true })).filter((name) => name.endsWith('.json')).map((name) => join(root, BASELINE_CACHE_DIR, name));

describe('the baseline cache', () => {
  it('checks a work item as the whole baseline does, cold and warm, and keeps counts only for the files its findings are on', async () => {
    const root = await baselined();
    for (const id of ITEMS) {
      const whole = await check(root, id, '--no-cache');
      expect(whole.code).toBe(0);
      expect(JSON.parse(whole.stdout).findings.length).toBeGreaterThan(0);
      expect(await check(root, id)).toEqual(whole);
      expect(await check(root, id)).toEqual(whole);
    }
    // One entry for each file the items' findings are on, and one that the file parsed.
    expect((await entries(root)).length).toBeLessThan(ITEMS.length * 8);
  });

  it('keeps what it read under the digest of the bytes it parsed, when the file changed after it was digested', async () => {
    const root = await baselined();
    const whole = await check(root, 'issue-3', '--no-cache');
    const file = join(root, BASELINE_FILE);
    const accepted = await readFile(file, 'utf8');
    // The digest taken, then the file replaced by a baseline that accepts nothing before it is read whole.
    const repo = withCache(await openRepo(root, undefined), {});
    const findingsOn = new Set(JSON.parse(whole.stdout).findings.map((finding: { file: string }) => finding.file) as string[]);
    await baselineDigest(repo);
    await writeFile(file, `${JSON.stringify({ schemaVersion: 1, findings: [] }, null, 2)}\n`);
    expect((await loadBaselineCountsFor(repo, findingsOn))?.size).toBe(0);
    // The file as it was: its digest finds nothing kept for the empty one, and the check accepts what it holds.
    await writeFile(file, accepted);
    expect(await check(root, 'issue-3')).toEqual(whole);
  });

  it('ignores entries that are corrupt or not of the shape it writes, and reads the baseline whole again', async () => {
    const root = await baselined();
    const whole = await check(root, 'issue-23', '--no-cache');
    expect(await check(root, 'issue-23')).toEqual(whole);
    for (const [index, entry] of (await entries(root)).entries()) {
      const key = (JSON.parse(await readFile(entry, 'utf8')) as { key: string }).key;
      // Under the entry's own key, a count of none (no count the baseline writes), or no JSON at all.
      await writeFile(entry, index % 2 === 0 ? JSON.stringify({ key, value: [['tasks-incomplete\u0000docs/specs/issue-23/tasks.md\u0000aaaaaaaaaaaaaaaa', 0]] }) : '{"key":');
    }
    expect(await check(root, 'issue-23')).toEqual(whole);
  });

  it('reads no entry that is a FIFO or lies in a folder linked out of the repository, and never waits on one', async () => {
    const root = await baselined();
    const whole = await check(root, 'issue-61', '--no-cache');
    await check(root, 'issue-61');
    const kept = await entries(root);
    for (const entry of kept) {
      await rm(entry);
      spawnSync('mkfifo', [entry]);
    }
    expect(await check(root, 'issue-61')).toEqual(whole);
    const outside = await tempDir('outside');
    await rm(join(root, BASELINE_CACHE_DIR), { recursive: true });
    await symlink(outside, join(root, BASELINE_CACHE_DIR));
    expect(await check(root, 'issue-61')).toEqual(whole);
    expect(await check(root, 'issue-61')).toEqual(whole);
    expect(await readdir(outside)).toEqual([]);
  });

  it('answers for the bytes it was written for only: a grown baseline accepts what it grew, a broken one is exit 2', async () => {
    const root = await baselined();
    const tasks = join(root, 'docs/specs/issue-3/tasks.md');
    await check(root, 'issue-3');
    await writeFiles(root, { 'docs/specs/issue-3/tasks.md': `${await readFile(tasks, 'utf8')}\n- [ ] A task added after the baseline\n` });
    const grown = await check(root, 'issue-3');
    expect(grown.code).toBe(1);
    expect(JSON.parse(grown.stdout).findings.filter((d: { baselined?: boolean; severity: string }) => d.baselined !== true && d.severity === 'error')).toHaveLength(1);
    expect((await runCli(['baseline', '--update'], { cwd: root })).code).toBe(0);
    expect((await check(root, 'issue-3')).code).toBe(0);
    await writeFiles(root, { '.the-loop/baseline.json': '{"schemaVersion": 1, "findings": [\n' });
    const broken = await check(root, 'issue-3');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('.the-loop/baseline.json');
  });
});
