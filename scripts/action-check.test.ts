import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('passes the pull request through: its reviews approve under approvals.source: github', async () => {
    const requested: string[] = [];
    let head = '';
    const server = createServer((req, res) => {
      requested.push(`${req.url} ${req.headers.authorization}`);
      const reviews = [{ id: 1, user: { login: 'alice' }, state: 'APPROVED', commit_id: head, submitted_at: '2026-01-01T00:00:00Z' }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url?.startsWith('/repos/acme/app/pulls/12/reviews') ? reviews : []));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const dir = await makeRepo({
        '.the-loop/harness-config.yaml': `github: {repo: acme/app, port: rest, apiUrl: "${url}"}\napprovals: {source: github}\n${graphConfig({ humanApproval: true })}`,
        '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: alice, roles: [approver]}\n',
        'docs/specs/open/requirements.md': LOCKED,
        'docs/specs/open/tasks.md': TASKS_DONE,
      });
      await git(dir, ['init', '-q']);
      await git(dir, ['add', '-A']);
      await git(dir, ['commit', '-q', '-m', 'base']);
      head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
      const refused = await action(dir, { THE_LOOP_BASE_REF: '', THE_LOOP_PULL_REQUEST: '12; rm -rf /' });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain('the pull-request input must be a pull-request number');
      const out = await action(dir, { THE_LOOP_BASE_REF: '', THE_LOOP_PULL_REQUEST: '12', GITHUB_TOKEN: 'from-the-workflow' });
      expect(out.code).toBe(0);
      expect(requested).toEqual(Array(2).fill('/repos/acme/app/pulls/12/reviews?per_page=100&page=1 Bearer from-the-workflow'));
      const sarif = JSON.parse(await readFile(join(dir, 'the-loop.sarif'), 'utf8'));
      expect(sarif.runs[0].results).toEqual([]);
    } finally {
      server.close();
    }
  });
});
