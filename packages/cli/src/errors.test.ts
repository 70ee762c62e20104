import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessAdapter } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from './harness/adapters.js';
import { graphConfig, LOCKED, makeRepo, payload, TASKS_OPEN } from './test-support/cli.js';
import { runInProcess } from './test-support/in-process.js';

const STACK = /\n\s+at /;

const run = (argv: readonly string[], cwd: string, options: { stdin?: string; adapters?: readonly HarnessAdapter[]; env?: NodeJS.ProcessEnv } = {}) =>
  runInProcess(argv, { cwd, adapters: options.adapters ?? BUILT_IN_ADAPTERS, ...(options.stdin !== undefined ? { stdin: options.stdin } : {}), ...(options.env ? { env: options.env } : {}) });

/** A work item whose recorded graph state points at a node the graph does not declare. */
async function strayPointer(): Promise<{ dir: string; state: string }> {
  const dir = await makeRepo({
    '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: ann, roles: [approver]}\n',
    'docs/specs/a/requirements.md': LOCKED,
  });
  expect((await run(['graph', 'advance', 'a'], dir)).code).not.toBe(2);
  const path = join(dir, 'docs/specs/a/graph-state.json');
  const state = (await readFile(path, 'utf8')).replace(/"currentNode": "[^"]*"/, '"currentNode": "nowhere"');
  await writeFile(path, state);
  return { dir, state };
}

describe('stack traces instead of errors', () => {
  it.each([
    [['graph', 'advance', 'a']],
    [['graph', 'complete', 'a', '--node', 'nowhere']],
    [['graph', 'status', 'a']],
    [['graph', 'approve', 'a', 'requirements.md', '--by', 'ann']],
  ])('%j on a currentNode the graph does not declare: exit 2, the file and line, the state untouched', async (argv) => {
    const { dir, state } = await strayPointer();
    const out = await run(argv, dir);
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toMatch(/docs\/specs\/a\/graph-state\.json:\d+:\d+ +currentNode names "nowhere", which is not a node of the graph/);
    expect(out.stderr).not.toMatch(STACK);
    expect(await readFile(join(dir, 'docs/specs/a/graph-state.json'), 'utf8')).toBe(state);
  });

  it('check and the Stop hook fail closed on that state: graph-state-invalid', async () => {
    const { dir } = await strayPointer();
    const out = await run(['check', 'a', '--format', 'json'], dir);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).toContain('graph-state-invalid');
  });

  it('hooks install when .claude/settings.json is a folder, or .claude is a file: exit 2, one line, nothing written', async () => {
    const folder = await makeRepo({ '.claude/settings.json/x': '' });
    const file = await makeRepo({ '.claude': 'not a folder' });
    for (const [dir, why] of [
      [folder, 'cannot read .claude/settings.json: it is a directory, not a regular file'],
      [file, '.claude is not a folder, so .claude/settings.json cannot be written'],
    ] as const) {
      const out = await run(['hooks', 'install', '--claude', '--cursor', '--command', 'npx the-loop'], dir);
      expect([out.code, out.stdout]).toEqual([2, '']);
      expect(out.stderr).toContain(why);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
      await expect(readFile(join(dir, '.cursor/hooks.json'))).rejects.toThrow();
    }
  });

  it('hook stdin over 8 MB: one line; a Stop is held, any other event exits 1', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), '.the-loop/current': 'issue-7', 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_OPEN });
    const huge = `{"cwd": "${'x'.repeat(9 * 1024 * 1024)}"}`;
    const context = await run(['hook', 'SessionStart', '--harness', 'claude'], dir, { stdin: huge });
    expect([context.code, context.stdout]).toEqual([1, '']);
    expect(context.stderr).toContain('stdin holds more than 8 MB');
    expect(context.stderr).not.toMatch(STACK);
    const held = await run(['hook', 'Stop', '--harness', 'claude'], dir, { stdin: huge });
    expect(held.code).toBe(0);
    expect(JSON.parse(held.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('stdin holds more than 8 MB') });
  });

  it('a bug is one line naming it; THE_LOOP_DEBUG=1 shows the stack', async () => {
    const dir = await makeRepo({ 'docs/specs/a/requirements.md': LOCKED });
    await mkdir(join(dir, '.git'));
    const [claude] = BUILT_IN_ADAPTERS as [HarnessAdapter];
    const broken: HarnessAdapter = {
      ...claude,
      settings: {
        ...claude.settings,
        install: () => {
          throw new TypeError('the settings merge broke');
        },
      },
      hooks: {
        ...claude.hooks,
        parsePayload: () => {
          throw new TypeError('the payload parser broke');
        },
      },
    };
    const install = await run(['hooks', 'install', '--claude', '--command', 'npx the-loop'], dir, { adapters: [broken] });
    expect(install.code).toBe(2);
    expect(install.stderr).toBe('the-loop: internal error: the settings merge broke (THE_LOOP_DEBUG=1 shows where)\n');
    const debug = await run(['hooks', 'install', '--claude'], dir, { adapters: [broken], env: { PATH: process.env['PATH'], THE_LOOP_DEBUG: '1' } });
    expect(debug.stderr).toMatch(STACK);
    const hook = await run(['hook', 'SessionStart', '--harness', 'claude'], dir, { adapters: [broken], stdin: await payload('claude', 'session-start', { cwd: dir }) });
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain('internal error: the payload parser broke (THE_LOOP_DEBUG=1 shows where)');
    expect(hook.stderr).not.toMatch(STACK);
  });
});
