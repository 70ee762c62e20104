import { describe, expect, it } from 'vitest';
import { BIN, git, makeRepo, runBuiltCli, writeFiles } from '../test-support/cli.js';

interface Report {
  ok: boolean;
  harnesses: { harness: string; installed: string; checks: { event: string; ok: boolean; detail: string }[] }[];
}

describe('doctor', () => {
  it('proves every installed hook blocks the canaries and lets the control through', async () => {
    const dir = await makeRepo({});
    await git(dir, ['init', '-q']);
    expect((await runBuiltCli(['hooks', 'install', '--command', `node ${BIN}`], { cwd: dir })).code).toBe(0);
    const out = await runBuiltCli(['doctor', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(out.stdout) as Report;
    expect(report.harnesses.map((h) => [h.harness, h.installed])).toEqual([['claude', 'yes'], ['cursor', 'yes'], ['git', 'yes']]);
    expect(report.harnesses.flatMap((h) => h.checks.map((c) => c.event))).toEqual(['Stop', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'stop', 'sessionStart', 'afterFileEdit', 'pre-push']);
    expect(report.harnesses.flatMap((h) => h.checks).filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(out.code).toBe(0);
  }, 120_000);

  it('fails when an installed hook lets a canary through', async () => {
    // A launcher that answers every hook with "allow": wired, but enforcing nothing.
    const dir = await makeRepo({ 'bin/fake-loop': '#!/bin/sh\ncat >/dev/null\necho "{}"\n' });
    await runBuiltCli(['hooks', 'install', '--claude', '--command', 'bin/fake-loop'], { cwd: dir });
    const out = await runBuiltCli(['doctor'], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('FAIL  Stop');
    expect(out.stdout).toContain('an unticked task passed through');
    expect(out.stdout).toContain('cursor .cursor/hooks.json  not installed');
  });

  it('reports a hook command it cannot run without a shell instead of guessing', async () => {
    const dir = await makeRepo({
      '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'cd x && the-loop hook Stop --harness claude' }] }] } }),
    });
    const out = await runBuiltCli(['doctor', '--format', 'json'], { cwd: dir });
    expect(out.code).toBe(1);
    const stop = (JSON.parse(out.stdout) as Report).harnesses[0]!.checks.find((c) => c.event === 'Stop')!;
    expect(stop.detail).toContain('cannot run without a shell');
  });

  it('fails when a harness settings file does not parse, even with another hook working', async () => {
    const dir = await makeRepo({});
    await git(dir, ['init', '-q']);
    expect((await runBuiltCli(['hooks', 'install', '--git', '--command', `node ${BIN}`], { cwd: dir })).code).toBe(0);
    await writeFiles(dir, { '.claude/settings.json': '{"hooks": ' });
    const out = await runBuiltCli(['doctor', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(out.stdout) as Report;
    expect(report.harnesses.find((h) => h.harness === 'claude')!.checks).toEqual([{ event: '(file)', ok: false, detail: '.claude/settings.json is not valid JSON' }]);
    expect(report.harnesses.find((h) => h.harness === 'git')!.checks.every((c) => c.ok)).toBe(true);
    expect(report.ok).toBe(false);
    expect(out.code).toBe(1);
  }, 120_000);

  it('exits 1 when nothing is installed: nothing is enforced', async () => {
    const dir = await makeRepo({});
    const out = await runBuiltCli(['doctor'], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('Nothing is installed');
  });
});
