// The `claude` stand-in is only worth its tests while it accepts what the real CLI accepts: its
// option table is checked against the pinned Claude Code's own --help.
import { describe, expect, it } from 'vitest';
import { claudeExecutable } from '../../packages/cli/src/test-support/claude-code.js';
import { runArgv } from '../../packages/cli/src/test-support/cli.js';
import { OPTIONS } from './lib/standin.mjs';

describe('the claude stand-in', () => {
  it('accepts exactly the options `claude --help` lists, with the same short forms', async () => {
    const help = await runArgv([await claudeExecutable(), '--help'], { cwd: process.cwd(), env: { PATH: process.env['PATH'] ?? '' }, inherit: false });
    expect(help.code).toBe(0);
    const long = new Set<string>();
    const short: Record<string, string> = {};
    for (const match of help.stdout.matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)(?:, (--[\w-]+))?/gm)) {
      long.add(match[2]!);
      if (match[3]) long.add(match[3]);
      if (match[1]) short[match[1]] = match[2]!;
    }
    expect(long.size).toBeGreaterThan(40);
    expect(Object.keys(OPTIONS.claude.long).sort()).toEqual([...long].sort());
    expect(OPTIONS.claude.short).toEqual(short);
  });
});
