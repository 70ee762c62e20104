import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLAUDE_DEFAULT_LAUNCHER, installClaudeHooks, installedClaudeCommands, uninstallClaudeHooks } from './hook-settings.js';

// User settings as Claude Code accepts them, with hooks of the user's own (never ours).
const userHook = fc.record({ type: fc.constant('command'), command: fc.stringMatching(/^\.\/[a-z]{1,8}\.sh( --[a-z]{1,5})?$/) }, { requiredKeys: ['type', 'command'] });
const group = fc.record({ matcher: fc.constantFrom('Bash', 'Write', '*'), hooks: fc.array(userHook, { minLength: 1, maxLength: 3 }) }, { requiredKeys: ['hooks'] });
const settings = fc.record(
  {
    model: fc.constantFrom('opus', 'sonnet'),
    permissions: fc.record({ allow: fc.array(fc.constantFrom('Bash(ls)', 'Read')) }),
    hooks: fc.dictionary(fc.constantFrom('Stop', 'PreToolUse', 'PostToolUse', 'SessionStart', 'Notification'), fc.array(group, { minLength: 1, maxLength: 2 }), { minKeys: 1 }),
  },
  { requiredKeys: [] },
);

const install = (value: unknown) => {
  const result = installClaudeHooks(value, CLAUDE_DEFAULT_LAUNCHER);
  if (!result.ok) throw new Error(result.error);
  return result.value;
};

const userCommands = (value: unknown): string[] =>
  Object.values(((value as { hooks?: Record<string, { hooks: { command: string }[] }[]> }).hooks ?? {}))
    .flat()
    .flatMap((g) => g.hooks.map((h) => h.command))
    .filter((c) => !c.includes('--harness claude'));

describe('Claude Code settings merge', () => {
  it('is idempotent, keeps every user hook in order, and uninstall gives the user settings back', () => {
    fc.assert(
      fc.property(settings, (user) => {
        const once = install(user);
        expect(install(once)).toEqual(once);
        expect(userCommands(once)).toEqual(userCommands(user));
        expect([...installedClaudeCommands(once).keys()].sort()).toEqual(['PostToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
        const removed = uninstallClaudeHooks(once);
        expect(removed.ok && removed.value).toEqual(user);
      }),
    );
  });

  it('updates its own entry in place when the launcher changes', () => {
    const first = install({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './mine.sh' }] }] } });
    const moved = installClaudeHooks(first, 'npx the-loop');
    expect(moved.ok && (moved.value['hooks'] as Record<string, unknown[]>)['Stop']).toEqual([
      { hooks: [{ type: 'command', command: './mine.sh' }] },
      { hooks: [{ type: 'command', command: 'npx the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"', timeout: 60 }] },
    ]);
  });

  it('refuses shapes Claude Code would not accept', () => {
    expect(installClaudeHooks([], 'x')).toEqual({ ok: false, error: 'the settings file is not a JSON object' });
    expect(installClaudeHooks({ hooks: { Stop: [{}] } }, 'x')).toEqual({ ok: false, error: '"hooks.Stop[0]" has no "hooks" array' });
  });
});
