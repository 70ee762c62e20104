import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveLauncher, splitCommandLine } from './command-line.js';

describe('splitCommandLine', () => {
  it('expands what hooks install writes, without a shell', () => {
    expect(splitCommandLine('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop hook Stop --harness claude', { CLAUDE_PROJECT_DIR: '/p q' })).toEqual({
      ok: true,
      argv: ['/p q/node_modules/.bin/the-loop', 'hook', 'Stop', '--harness', 'claude'],
    });
    expect(splitCommandLine('node x.mjs hook pre-push --chain "$0.pre-the-loop" "$@"', { '0': '/h/pre-push' }, ['origin', 'u'])).toEqual({
      ok: true,
      argv: ['node', 'x.mjs', 'hook', 'pre-push', '--chain', '/h/pre-push.pre-the-loop', 'origin', 'u'],
    });
    expect(splitCommandLine("a 'b c' \"\"", {})).toEqual({ ok: true, argv: ['a', 'b c', ''] });
  });

  it('refuses what only a shell could interpret', () => {
    for (const line of ['a && b', 'a | b', 'a; b', 'echo $(id)', 'echo `id`', 'a $HOME', '"unterminated', 'a > f', '']) {
      expect(splitCommandLine(line, { CLAUDE_PROJECT_DIR: '/p' }).ok).toBe(false);
    }
  });

  it('splits plain words back into the words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z0-9_./=:-]+$/), { minLength: 1, maxLength: 8 }), (words) => {
        expect(splitCommandLine(words.join('  '), {})).toEqual({ ok: true, argv: words });
      }),
    );
  });
});

describe('resolveLauncher', () => {
  it('finds a relative launcher from the project root, leaves a bare name for PATH', () => {
    expect(resolveLauncher(['node_modules/.bin/the-loop', 'hook'], '/repo')).toEqual(['/repo/node_modules/.bin/the-loop', 'hook']);
    expect(resolveLauncher(['npx', 'the-loop'], '/repo')).toEqual(['npx', 'the-loop']);
  });
});
