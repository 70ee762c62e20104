// docs/proof.md shows a proof made by the real commands: this regenerates it on a fresh
// repository and fails when the page is not what `verify` and `proof` print today.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('docs/proof.md', () => {
  it('is what `the-loop verify` and `the-loop proof` print for test-fixtures/proof-example (run `node scripts/proof-example.mjs` to refresh it)', () => {
    const result = spawnSync(process.execPath, ['scripts/proof-example.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
