import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The purity rules live in eslint.config.js; this proves they bite, through ESLint's own API
// (one process, one configuration load, however many snippets). The rules cover the sources a
// package ships, not its tests, so only those are linted here; `pnpm lint` lints everything.
const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)), ignorePatterns: ['**/*.test.ts'] });

const ruleIds = (results: ESLint.LintResult[]): (string | null)[] => results.flatMap((file) => file.messages.map((m) => m.ruleId));

describe.each([
  ['@the-loop/core', 'packages/core/src'],
  ['@the-loop/hooks', 'packages/hooks/src'],
])('%s stays pure', (_name, dir) => {
  it('has no lint errors, the purity rules included', async () => {
    const results = await eslint.lintFiles([dir]);
    expect(ruleIds(results)).toEqual([]);
    expect(results.reduce((n, file) => n + file.errorCount, 0)).toBe(0);
  }, 60_000);

  it.each([
    ["import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    ["import { spawn } from 'child_process';\nexport const x = spawn;\n", 'no-restricted-imports'],
    ["import { x } from 'tinyexec';\nexport const y = x;\n", 'no-restricted-imports'],
    ["import { join } from 'node:path';\nexport const x = join;\n", 'no-restricted-imports'],
    ["import { createHash } from 'node:crypto';\nexport const x = createHash;\n", 'no-restricted-imports'],
    ['export const home = process.env.HOME;\n', 'no-restricted-globals'],
    ['export const now = Date.now();\n', 'no-restricted-syntax'],
    ['export const now = new Date();\n', 'no-restricted-syntax'],
  ])('rejects I/O, environment, clock, platform paths and crypto: %s', async (code, rule) => {
    const results = await eslint.lintText(code, { filePath: `${dir}/impure.ts` });
    expect(ruleIds(results)).toContain(rule);
    // An error, not a warning: the lint run fails.
    expect(results[0]?.errorCount).toBeGreaterThan(0);
  });
});
