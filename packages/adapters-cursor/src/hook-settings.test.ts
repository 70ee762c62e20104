import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURSOR_DEFAULT_LAUNCHER, installCursorHooks, installedCursorCommands, uninstallCursorHooks } from './hook-settings.js';

const entry = fc.record({ command: fc.stringMatching(/^\.\/hooks\/[a-z]{1,8}\.sh$/) });
const file = fc.record({
  version: fc.constant(1),
  hooks: fc.dictionary(fc.constantFrom('stop', 'beforeShellExecution', 'afterFileEdit', 'beforeReadFile'), fc.array(entry, { minLength: 1, maxLength: 3 }), { minKeys: 1 }),
});

const install = (value: unknown) => {
  const result = installCursorHooks(value, CURSOR_DEFAULT_LAUNCHER);
  if (!result.ok) throw new Error(result.error);
  return result.value;
};

describe('Cursor hooks.json merge', () => {
  it('is idempotent, keeps the user entries, sets loop_limit, and uninstall restores the file', () => {
    fc.assert(
      fc.property(file, (user) => {
        const once = install(user);
        expect(install(once)).toEqual(once);
        const stop = (once['hooks'] as Record<string, Record<string, unknown>[]>)['stop']!;
        expect(stop.filter((e) => String(e['command']).startsWith('./hooks/'))).toEqual(user.hooks['stop'] ?? []);
        expect(stop.find((e) => String(e['command']).endsWith('--harness cursor --repo .'))).toEqual({ command: 'node_modules/.bin/the-loop hook stop --harness cursor --repo .', loop_limit: 5 });
        expect([...installedCursorCommands(once).keys()].sort()).toEqual(['afterFileEdit', 'sessionStart', 'stop']);
        const removed = uninstallCursorHooks(once);
        expect(removed.ok && removed.value).toEqual(user);
      }),
    );
  });

  it('adds version 1 to a new file', () => {
    expect(install(undefined)['version']).toBe(1);
  });
});
