import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, graphConfig, LOCKED, makeRepo, runArgv, runCli, writeFiles } from '../test-support/cli.js';

// Root reads any folder; the CLI then runs without the capabilities that let it, as a user would.
const AS_A_USER = process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search'] : [];

describe('a work-item folder that cannot be listed', () => {
  it('is artifact-unreadable, not artifact-missing: nothing about what it holds is assumed', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-7/requirements.md': LOCKED });
    await chmod(join(dir, 'docs/specs/issue-7'), 0o000);
    try {
      const out = await runArgv([...AS_A_USER, process.execPath, BIN, 'check', 'issue-7', '--format', 'json'], { cwd: dir });
      expect(out.code).toBe(1);
      const findings = JSON.parse(out.stdout).findings as { ruleId: string; message: string }[];
      expect(findings.map((f) => f.ruleId)).not.toContain('artifact-missing');
      expect(findings.find((f) => f.ruleId === 'artifact-unreadable')?.message).toContain('its folder docs/specs/issue-7 cannot be listed (permission denied)');
    } finally {
      await chmod(join(dir, 'docs/specs/issue-7'), 0o755);
    }
  });
});

describe('a work-item folder reached through a symbolic link', () => {
  const config = graphConfig();
  const findingsOf = async (dir: string, args: readonly string[]) => {
    const out = await runCli(args, { cwd: dir });
    return { code: out.code, findings: JSON.parse(out.stdout).findings as { ruleId: string; message: string }[] };
  };

  it('out of the repository: every artifact of it is unreadable, none read', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'the-loop-outside-'));
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': config, 'docs/specs/.keep': '' });
    try {
      await writeFiles(outside, { 'requirements.md': LOCKED });
      await symlink(outside, join(dir, 'docs/specs/issue-7'));
      const { code, findings } = await findingsOf(dir, ['check', 'issue-7', '--format', 'json', '--no-cache']);
      expect(code).toBe(1);
      expect(findings.find((f) => f.ruleId === 'artifact-unreadable')?.message).toContain('its folder is reached through a symbolic link out of the repository');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('inside the repository, or under a spec root that is itself a link inside it: read as any folder', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': config, 'elsewhere/issue-7/requirements.md': LOCKED, 'docs/specs/.keep': '' });
    await symlink(join(dir, 'elsewhere/issue-7'), join(dir, 'docs/specs/issue-7'));
    const linked = await findingsOf(dir, ['check', 'issue-7', '--format', 'json', '--no-cache']);
    await rm(join(dir, 'docs/specs'), { recursive: true });
    await symlink(join(dir, 'elsewhere'), join(dir, 'docs/specs'));
    const underLinkedRoot = await findingsOf(dir, ['check', 'issue-7', '--format', 'json', '--no-cache']);
    for (const run of [linked, underLinkedRoot]) expect(run.findings.map((f) => f.ruleId)).not.toContain('artifact-unreadable');
    expect(underLinkedRoot).toEqual(linked);
  });

  it('under a spec root linked out of the repository: unreadable', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'the-loop-outside-'));
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': config });
    try {
      await writeFiles(outside, { 'issue-7/requirements.md': LOCKED });
      await mkdir(join(dir, 'docs'));
      await symlink(outside, join(dir, 'docs/specs'));
      const { findings } = await findingsOf(dir, ['check', 'issue-7', '--format', 'json', '--no-cache']);
      expect(findings.find((f) => f.ruleId === 'artifact-unreadable')?.message).toContain('through a symbolic link out of the repository');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
