// Vitest's global setup: a run makes hundreds of temporary folders (repositories, homes,
// remotes), and they all go in one folder of the run's own, removed when the run ends, whether
// `pnpm test` or vitest itself started it. The workers start after this and take the folder
// from TMPDIR. An interrupted run leaves it: `pnpm test` removes the folder it runs in then
// (scripts/test.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function scratchFolder() {
  const scratch = mkdtempSync(join(tmpdir(), 'the-loop-suite-'));
  process.env.TMPDIR = scratch;
  return () => {
    try {
      rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.error(`the tests' temporary folder ${scratch} stays: ${error.message}`);
    }
  };
}
