import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = `${root}node_modules/eslint/bin/eslint.js`;

function lint(args: string[], input?: string) {
  return spawnSync(process.execPath, [eslint, '--format', 'json', ...args], { cwd: root, input, encoding: 'utf8' });
}

function ruleIds(stdout: string): string[] {
  return (JSON.parse(stdout) as { messages: { ruleId: string }[] }[]).flatMap((file) => file.messages.map((m) => m.ruleId));
}

describe('@the-loop/core stays pure', () => {
  it('has no lint errors, the purity rules included', () => {
    const result = lint(['packages/core/src']);
    expect(ruleIds(result.stdout)).toEqual([]);
    expect(result.status).toBe(0);
  });

  it.each([
    ["import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    ["import { spawn } from 'child_process';\nexport const x = spawn;\n", 'no-restricted-imports'],
    ["import { x } from 'tinyexec';\nexport const y = x;\n", 'no-restricted-imports'],
    ['export const home = process.env.HOME;\n', 'no-restricted-globals'],
    ['export const now = Date.now();\n', 'no-restricted-syntax'],
    ['export const now = new Date();\n', 'no-restricted-syntax'],
  ])('rejects I/O, environment and clock in core: %s', (code, rule) => {
    const result = lint(['--stdin', '--stdin-filename', 'packages/core/src/impure.ts'], code);
    expect(ruleIds(result.stdout)).toContain(rule);
    expect(result.status).toBe(1);
  });
});
