import { evidenceRecord, judgeCheck, planFromFiles, recordedCheck, runPassed, streamOutput, type CheckEvidence, type PlannedCheck } from '@the-loop/core';
import { configurationError, UsageError } from '../errors.js';
import { redactSecrets } from '../evidence/redact.js';
import { readRecords, recordPath, writeRecord } from '../evidence/records.js';
import { currentState, dependenciesOf, environmentFingerprint, toolVersions } from '../evidence/state.js';
import { columns } from '../format/findings.js';
import { formatJson } from '../format/json.js';
import { colorsFor } from '../format/colors.js';
import { readCommitState, readRepositoryFiles } from '../git/repository-files.js';
import { oneOf, parseOptions, type Command, type CommandEnv } from './command.js';
import { runOnPath } from '../process/run-process.js';
import { sha256 } from '../workspace/digest.js';
import { artifactNames, readWorkItem, resolveWorkItem } from '../workspace/read-work-item.js';
import { openRepo, type Repo } from '../workspace/repo.js';

const USAGE = `Usage: the-loop verify <work-item> [--check ID]... [--repo DIR] [--format table|json]

Runs the checks that apply to the work item (verification.checks in .the-loop/harness-config.yaml,
as its testing-plan.md narrows and adds to them), each as an argv list in its own process group with
its timeout, and writes one evidence record per check to docs/specs/<id>/evidence/<check>.json:
the argv, how it ended, the SHA-256 and an excerpt of its output (secrets redacted), the files it
depends on, the commit, the environment and the tool versions.
  --check ID            run only this check (repeatable)
  --format table|json   table for people (default), json for tools
Exit codes: 0 every check run passed and its evidence is current · 1 a check failed, timed out or
could not start (its record is still written) · 2 usage or configuration error (nothing run)`;

export const command: Command = {
  summary: 'run the declared checks and record their evidence',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, check: { type: 'string', multiple: true }, format: { type: 'string' } }, USAGE);
    if (positionals.length !== 1) throw new UsageError(`verify takes one work-item id\n${USAGE}`);
    const format = oneOf(values.format, ['table', 'json'] as const, 'table', '--format');
    const id = positionals[0] as string;
    const repo = await openRepo(env.cwd, values.repo);
    await resolveWorkItem(repo, id);
    const checks = await selectChecks(repo, id, values.check ?? []);
    // Fails (exit 2) before anything runs when there is no git repository to bind evidence to.
    await readRepositoryFiles(repo.root);

    const tty = colorsFor(env.stderr, env.env);
    for (const check of checks) {
      env.stderr.write(`${tty.dim(`running ${check.id}: ${check.argv.join(' ')}`)}\n`);
      const path = await runCheck(repo, id, check, env);
      env.stderr.write(`  wrote ${path}\n`);
    }

    // Judge what was written against the state now: a check that changed its own files is stale at once.
    const records = await readRecords(repo, id, checks.map((c) => c.id));
    const current = await currentState(repo, checks);
    const judged = checks.map((check) => judgeCheck(check, records.get(check.id), current));
    const ok = judged.every((c) => c.status === 'current');
    if (format === 'json') {
      const doc = { schemaVersion: 1, workItem: id, ok, checks: judged.map((c) => summary(repo, id, c)) };
      env.stdout.write(formatJson(doc));
    } else {
      const c = colorsFor(env.stdout, env.env);
      const rows = judged.map((j) => {
        const paint = j.status === 'current' ? c.green : c.red;
        return [`  ${j.check.id}`, paint(j.status === 'current' ? 'passed' : j.status), j.record ? `${(j.record.run.durationMs / 1000).toFixed(1)} s` : '', j.reasons.join('; ')];
      });
      env.stdout.write(`${[`${c.bold(id)}: ${ok ? c.green('every check passed; its evidence is current') : c.red('not every check passed')}`, '', ...columns(rows)].join('\n')}\n`);
    }
    return ok ? 0 : 1;
  },
};

// The checks to run: those that apply to the work item, or the ones --check names.
async function selectChecks(repo: Repo, id: string, wanted: readonly string[]): Promise<PlannedCheck[]> {
  const files = await readWorkItem(repo, id, artifactNames(repo.config));
  const plan = planFromFiles(repo.config.verification, files.files, files.dir);
  if (plan.problems.length > 0) {
    throw configurationError('the testing plan\'s verification block is invalid', plan.problems.map((d) => ({ file: d.file, line: d.line ?? 1, column: d.column ?? 1, message: d.message })));
  }
  if (plan.checks.length === 0) {
    throw new UsageError(`no verification check applies to ${id}: declare checks under verification.checks in ${repo.config.file ?? '.the-loop/harness-config.yaml'} (see docs/verification.md)`);
  }
  const unknown = wanted.filter((name) => !plan.checks.some((c) => c.id === name));
  if (unknown.length > 0) throw new UsageError(`no check "${unknown.join('", "')}" applies to ${id}; the checks are: ${plan.checks.map((c) => c.id).join(', ')}`);
  return wanted.length === 0 ? [...plan.checks] : plan.checks.filter((c) => wanted.includes(c.id));
}

// Run one check and record it. The state it depends on is read just before it starts: the record
// says what the run saw, and a run that changes its own inputs is stale as soon as it ends.
async function runCheck(repo: Repo, id: string, check: PlannedCheck, env: CommandEnv): Promise<string> {
  const snapshot = await readRepositoryFiles(repo.root);
  const { dependencies, paths } = dependenciesOf(snapshot, check, repo.config.specDir);
  const { commit, changed } = await readCommitState(repo.root, snapshot);
  const environment = await environmentFingerprint(repo);
  const [command, ...rest] = check.argv as [string, ...string[]];
  const result = await runOnPath({ command, args: rest, cwd: repo.root, env: env.env, timeoutMs: check.timeoutSeconds * 1000 });
  const stdout = redactSecrets(result.stdout);
  const stderr = redactSecrets(result.stderr);
  const run = { exitCode: result.exitCode, signal: result.signal, timedOut: result.timedOut, spawnError: result.spawnError ?? null };
  const record = evidenceRecord(
    {
      workItem: id,
      check: recordedCheck(check),
      run: { ...run, passed: runPassed(run, check.expectExitCode), durationMs: Math.round(result.durationMs) },
      output: { stdout: streamOutput(stdout.text, sha256), stderr: streamOutput(stderr.text, sha256), truncated: result.truncated, redactions: stdout.count + stderr.count },
      dependencies,
      git: { commit, dirty: paths.some((path) => changed.has(path)) },
      tools: toolVersions(),
      environment,
      createdAt: env.now().toISOString(),
    },
    sha256,
  );
  return writeRecord(repo, record);
}

function summary(repo: Repo, id: string, judged: CheckEvidence) {
  return {
    id: judged.check.id,
    status: judged.status,
    exitCode: judged.record?.run.exitCode ?? null,
    durationMs: judged.record?.run.durationMs ?? null,
    record: recordPath(repo, id, judged.check.id),
    reasons: judged.reasons,
  };
}
