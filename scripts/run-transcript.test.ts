import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { committedTranscript, stable, transcript } from './run-transcript.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('docs/run.md', () => {
  it('shows what `the-loop run` prints for the worked example (run `node scripts/run-transcript.mjs` after changing it)', async () => {
    const doc = readFileSync(`${root}docs/run.md`, 'utf8');
    expect(stable(await transcript())).toBe(stable(committedTranscript(doc)));
  });
});
