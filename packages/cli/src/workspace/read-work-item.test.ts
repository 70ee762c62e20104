import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, graphConfig, LOCKED, makeRepo, runArgv } from '../test-support/cli.js';

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
