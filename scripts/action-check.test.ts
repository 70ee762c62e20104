import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, git, graphConfig, LOCKED, makeRepo, runArgv, TASKS_DONE, TASKS_OPEN, writeFiles } from '../packages/cli/src/test-support/cli.js';

const SCRIPT = fileURLToPath(new URL('./action-check.mjs', import.meta.url));

async function repo() {
  const dir = await makeRepo({
    '.the-loop/harness-config.yaml': graphConfig(),
    'docs/specs/open/requirements.md': LOCKED,
    'docs/specs/open/tasks.md': TASKS_OPEN,
    'docs/specs/done/requirements.md': LOCKED,
    'docs/specs/done/tasks.md': TASKS_DONE,
  });
  await git(dir, ['init', '-q']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'base']);
  return dir;
}

const action = (dir: string, env: Record<string, string>) =>
  runArgv([process.execPath, SCRIPT], { cwd: dir, env: { THE_LOOP_COMMAND: `${process.execPath} ${BIN}`, GITHUB_OUTPUT: join(dir, 'out.txt'), ...env } });

describe('the action step', () => {
  it('checks only the work items a pull request touches and passes when they pass', async () => {
    const dir = await repo();
    const base = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await git(dir, ['checkout', '-q', '-b', 'pr']);
    await writeFiles(dir, { 'docs/specs/done/design.md': '# Design\n', 'docs/specs/README.md': '# Index\n' });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'touch done']);
    const out = await action(dir, { THE_LOOP_BASE_REF: base });
    expect(out.stdout).toContain(`checking the work items changed since ${base}`);
    expect(out.code).toBe(0);
    const sarif = JSON.parse(await readFile(join(dir, 'the-loop.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe(`sarif-file=${join(dir, 'the-loop.sarif')}\n`);
  });

  it('a manual run without a base ref checks every work item and fails on the open one, with annotations', async () => {
    const dir = await repo();
    const out = await action(dir, { THE_LOOP_BASE_REF: '' });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('checking every work item (no base ref)');
    expect(out.stdout).toContain('::error file=docs/specs/open/tasks.md,line=4,col=1,title=the-loop tasks-incomplete');
    const sarif = JSON.parse(await readFile(join(dir, 'the-loop.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['tasks-incomplete']);
  });

  it('fails closed when the gate cannot run', async () => {
    const dir = await repo();
    const out = await action(dir, { THE_LOOP_BASE_REF: 'no-such-ref' });
    expect(out.code).toBe(2);
    expect(out.stdout).toContain('failing closed');
  });
});
