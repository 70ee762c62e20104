// The GitHub Action's step: chooses the work items (changed since the base ref, or all of
// them on a manual run), runs `the-loop check` as argv lists (no shell), writes the SARIF
// file, prints annotations, and fails closed on anything but a clean gate.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = process.env;
const cwd = process.cwd();
const baseRef = (env.THE_LOOP_BASE_REF ?? '').trim();
const failOn = (env.THE_LOOP_FAIL_ON ?? '').trim() || 'block';
const sarifFile = resolve(cwd, (env.THE_LOOP_SARIF_FILE ?? '').trim() || 'the-loop.sarif');
const rulesUrl = (env.THE_LOOP_RULES_URL ?? '').trim();
const pullRequest = (env.THE_LOOP_PULL_REQUEST ?? '').trim();

function launcher() {
  const words = (env.THE_LOOP_COMMAND ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) return words;
  const local = join(cwd, 'node_modules', '.bin', 'the-loop');
  if (existsSync(local)) return [local];
  // Used from the-loop's own repository after a build.
  const bundled = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'cli', 'bin', 'the-loop.cjs');
  if (existsSync(join(dirname(bundled), '..', 'dist', 'the-loop.cjs'))) return [process.execPath, bundled];
  return undefined;
}

const command = launcher();
if (!command) {
  console.log('::error title=the-loop::the-loop is not installed here: add @the-loop/cli to the project or set the `command` input.');
  process.exit(2);
}
if (pullRequest !== '' && !/^[1-9]\d*$/.test(pullRequest)) {
  console.log(`::error title=the-loop::the pull-request input must be a pull-request number; got "${pullRequest}".`);
  process.exit(2);
}
// A manual run has no base to compare with, and neither has a push that creates a branch.
const selection = baseRef === '' || /^0+$/.test(baseRef) ? ['--all'] : ['--changed-from', baseRef];
// The pull request whose reviews are the approvals under `approvals.source: github`.
const common = ['check', ...selection, '--fail-on', failOn, ...(rulesUrl ? ['--rules-url', rulesUrl] : []), ...(pullRequest ? ['--pr', pullRequest] : [])];
const run = (args, capture) =>
  spawnSync(command[0], [...command.slice(1), ...args], { cwd, env, shell: false, encoding: 'utf8', stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], maxBuffer: 256 * 1024 * 1024 });

console.log(`the-loop: ${selection[0] === '--all' ? 'checking every work item (no base ref)' : `checking the work items changed since ${baseRef}`}`);
const sarif = run([...common, '--format', 'sarif'], true);
if (sarif.error || (sarif.status !== 0 && sarif.status !== 1)) {
  console.log(`::error title=the-loop::the gate could not run (exit ${sarif.status ?? sarif.error?.message}); failing closed.`);
  process.exit(2);
}
writeFileSync(sarifFile, sarif.stdout);
if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `sarif-file=${sarifFile}\n`);
const annotations = run([...common, '--format', 'github'], false);
if (annotations.status !== sarif.status) {
  console.log(`::error title=the-loop::the two runs disagreed (exit ${sarif.status} and ${annotations.status}); failing closed.`);
  process.exit(2);
}
process.exit(sarif.status);
