// The test command: build the CLI (tests run the built binary), run every test with vitest,
// and end with one plain `N passed, N failed` line taken from vitest's JSON report, so a run
// that executed no test is visible.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutExtraCertificates } from './node-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}.test-results.json`;
// pack.test's npm, the one process that may reach the network, runs with a user's environment of its own.
const env = withoutExtraCertificates(process.env);
const run = (args, extra = {}) => spawnSync(process.execPath, args, { cwd: root, env: { ...env, ...extra }, stdio: 'inherit' });

const built = run([`${root}scripts/build.mjs`]);
if (built.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(built.status ?? 1);
}
// A run makes hundreds of temporary folders (repositories, homes, remotes): they all go in one
// folder of the run's own, removed when it ends, an interrupted run's too (vitest's global setup
// makes one inside it and removes it at the end of a run, but not of one interrupted).
const scratch = mkdtempSync(join(tmpdir(), 'the-loop-suite-'));
process.on('SIGINT', () => {});
rmSync(results, { force: true });
const vitest = run([
  `${root}node_modules/vitest/vitest.mjs`,
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${results}`,
  ...process.argv.slice(2),
], { TMPDIR: scratch });
let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(results, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  // A file that failed outside any test (an import error, a failed beforeAll) leaves its tests
  // skipped and none failed: count each such test as failed so the summary cannot look green.
  for (const file of report.testResults) {
    const assertions = file.assertionResults ?? [];
    if (file.status === 'failed' && !assertions.some((a) => a.status === 'failed')) {
      failed += Math.max(1, assertions.filter((a) => a.status !== 'passed').length);
    }
  }
} catch {
  failed = 1;
}
try {
  rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
} catch (error) {
  console.error(`the tests' temporary folder ${scratch} stays: ${error.message}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 && passed > 0 ? 0 : vitest.status || 1);
