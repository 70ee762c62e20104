import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWithStandins, STANDIN_PATH, STANDINS, tempProject } from '../test-support/cli-harness.js';

const CONFIG = '.the-loop/harness-config.yaml';

interface Listing {
  name: string | null;
  harness: string | null;
  model: string | null;
  binary: string | null;
  path: string | null;
  available: boolean;
  enabled: boolean;
  error: string | null;
}

async function list(root: string, env: Record<string, string> = { PATH: STANDIN_PATH }): Promise<{ code: number | null; critics: Listing[]; stderr: string }> {
  const result = await runWithStandins(['critic', 'list', '--format', 'json'], { cwd: root, env });
  const document = result.stdout === '' ? { critics: [] } : (JSON.parse(result.stdout) as { schemaVersion: number; critics: Listing[] });
  return { code: result.code, critics: document.critics, stderr: result.stderr };
}

describe('Running a round: critic list reports each critic, its executable, PATH, enabled state and why a broken one cannot run', () => {
  it('lists built-in, command, disabled and broken critics, each broken entry with its own reason and line', async () => {
    const root = await tempProject({
      [CONFIG]: [
        'reviews:',
        '  critics:',
        '    - name: claude-critic',
        '      harness: claude',
        '      model: opus',
        '    - name: cursor-critic',
        '      harness: cursor',
        '      enabled: false',
        '    - name: phrase',
        '      command: cursor-agent review',
        '      args: ["{prompt}"]',
        '    - name: slow',
        '      harness: claude',
        '      timeoutSeconds: .inf',
        '    - name: gemini',
        '      harness: gemini',
        '',
      ].join('\n'),
    });
    const { code, critics } = await list(root);
    expect(code).toBe(0);
    expect(critics.map((c) => [c.name, c.binary, c.available, c.enabled])).toEqual([
      ['claude-critic', 'claude', true, true],
      ['cursor-critic', 'cursor-agent', true, false],
      ['phrase', 'cursor-agent review', false, true],
      ['slow', 'claude', true, true],
      ['gemini', null, false, true],
    ]);
    expect(critics[0]).toMatchObject({ harness: 'claude', model: 'opus', path: join(STANDINS, 'claude'), error: null });
    expect(critics[1]?.error).toBeNull();
    expect(critics[2]?.error).toMatch(/harness-config\.yaml:10:\d+ +reviews\.critics\[2\]\.command: holds whitespace: a phrase, not an executable/);
    expect(critics[3]?.error).toMatch(/harness-config\.yaml:14:\d+ +reviews\.critics\[3\]\.timeoutSeconds: must be a finite number/);
    expect(critics[4]?.error).toContain('no built-in adapter for harness "gemini"');
  });

  it('reports "no critics configured" as a valid state, exit 0, in both formats', async () => {
    const root = await tempProject();
    expect(await list(root)).toMatchObject({ code: 0, critics: [] });
    const table = await runWithStandins(['critic', 'list'], { cwd: root, env: { PATH: STANDIN_PATH } });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('no critics configured');
  });

  it('checks availability with the PATH the round will use: the entry env overlays PATH', async () => {
    const tools = await tempProject();
    await writeFile(join(tools, 'my-critic'), '#!/bin/sh\necho ok\n');
    await chmod(join(tools, 'my-critic'), 0o755);
    const root = await tempProject({
      [CONFIG]: `reviews:\n  critics:\n    - name: mine\n      command: my-critic\n      args: ["{prompt}"]\n      env:\n        PATH: ${JSON.stringify(tools)}\n    - name: missing\n      command: my-critic\n      args: ["{prompt}"]\n`,
    });
    const { critics } = await list(root);
    expect(critics.map((c) => [c.name, c.available, c.path])).toEqual([
      ['mine', true, join(tools, 'my-critic')],
      ['missing', false, null],
    ]);
  });

  it('checks a relative command in the entry cwd, resolved against the project root', async () => {
    const root = await tempProject({
      [CONFIG]: 'reviews:\n  critics:\n    - name: local\n      command: ./review.sh\n      args: ["{promptFile}"]\n      cwd: tools\n',
      'tools/review.sh': '#!/bin/sh\necho ok\n',
    });
    await chmod(join(root, 'tools/review.sh'), 0o755);
    const sub = join(root, 'tools');
    const result = await runWithStandins(['critic', 'list', '--format', 'json', '--repo', root], { cwd: sub, env: { PATH: STANDIN_PATH } });
    const [critic] = (JSON.parse(result.stdout) as { critics: Listing[] }).critics;
    expect(critic).toMatchObject({ available: true, path: join(root, 'tools/review.sh') });
  });

  it('says why a critic whose working directory is missing cannot run', async () => {
    const root = await tempProject({ [CONFIG]: 'reviews:\n  critics:\n    - name: c\n      harness: claude\n      cwd: gone\n' });
    const { critics } = await list(root);
    expect(critics[0]?.error).toBe('the working directory gone does not exist');
  });

  it('rejects the whole configuration (exit 2) when critics is not a list', async () => {
    const root = await tempProject({ [CONFIG]: 'reviews:\n  critics:\n    name: claude\n' });
    const result = await runWithStandins(['critic', 'list'], { cwd: root, env: { PATH: STANDIN_PATH } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/harness-config\.yaml:2:\d+ +reviews\.critics: must be a list of critic entries/);
  });

  it('prints a table for people', async () => {
    const root = await tempProject({ [CONFIG]: 'reviews:\n  critics:\n    - name: claude-critic\n      harness: claude\n' });
    const result = await runWithStandins(['critic', 'list'], { cwd: root, env: { PATH: STANDIN_PATH, NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]).toMatch(/^claude-critic +claude\/default +claude +yes +yes$/);
  });
});

describe('reviews configuration scope', () => {
  it('a broken reviews section stops every command, check too, with its line: configuration errors come together', async () => {
    const root = await tempProject({
      [CONFIG]: 'reviews:\n  criticReviewCount: many\n',
      'docs/specs/issue-1/requirements.md': '---\nstatus: draft\n---\n# Requirements\n',
    });
    for (const args of [['critic', 'list'], ['check', 'issue-1', '--format', 'json']]) {
      const run = await runWithStandins(args, { cwd: root, env: { PATH: STANDIN_PATH } });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/harness-config\.yaml:2:\d+ +reviews\.criticReviewCount: must be a whole number/);
    }
  });
});
