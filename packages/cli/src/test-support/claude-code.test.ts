import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claudeExecutable, pinnedClaudeVersion } from './claude-code.js';
import { runArgv } from './cli.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the Claude Code the tests run', () => {
  it('is the pinned version, installed with its native binary, and the docs name that version', async () => {
    const version = await pinnedClaudeVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const printed = await runArgv([await claudeExecutable(), '--version'], { cwd: ROOT, env: { PATH: '/usr/bin:/bin' }, inherit: false, timeoutMs: 20_000 });
    expect(printed).toMatchObject({ code: 0, stdout: `${version} (Claude Code)\n` });
    // Updating the dependency is a deliberate change: the documentation moves with it.
    for (const doc of ['docs/hooks.md', 'docs/critics.md', 'test-fixtures/hook-payloads/README.md']) {
      expect(await readFile(join(ROOT, doc), 'utf8'), doc).toContain(`Claude Code ${version}`);
    }
  });
});
