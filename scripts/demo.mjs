// The main job for a newcomer: the drift report over the bundled retrofit corpus.
// `report` exits 1 because the corpus is full of drift; that is the finding, not a failure of the demo.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = spawnSync(process.execPath, [`${root}scripts/build.mjs`], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const report = spawnSync(
  process.execPath,
  [`${root}packages/cli/bin/the-loop.cjs`, 'report', '--repo', `${root}test-fixtures/retrofit-34`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
if (report.status === 1) {
  console.error('\nthe-loop report exited 1: work items in the corpus have unmet gates — the drift this report exists to show.');
  process.exit(0);
}
process.exit(report.status ?? 1);
