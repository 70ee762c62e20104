import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { howItEnded, parseJson, parseJsonObject, type HarnessAdapter, type HookEvent } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { CANARIES, CONTROL, SPEC_DIR, writeCanaryRepo } from '../doctor/canary-repo.js';
import { resolveLauncher, splitCommandLine } from '../doctor/command-line.js';
import { readIfPresent } from '../workspace/read-file.js';
import { withScratchDir } from '../workspace/scratch.js';
import { isOwnPrePush, prePushCommand } from '../install/pre-push-script.js';
import { gitHooksDir } from '../install/targets.js';
import { git } from '../git/git.js';
import { openRepo } from '../workspace/repo.js';
import { runProcess, type RunResult } from '../process/run-process.js';
import { oneOf, parseOptions, type Command, type CommandEnv } from './command.js';

const USAGE = `Usage: the-loop doctor [--repo DIR] [--format table|json]

Proves the installed hooks still bite. In a temporary repository it plants known violations
(an unticked task, a draft upstream artifact under a log claiming a later phase, a pasted
template comment) beside a clean control item, runs the exact command line each installed
hook holds with a fixture payload, and checks the reply: every canary blocked, the control
let through. The pre-push gate is run against real commits the same way.
Exit codes: 0 every installed hook works · 1 a canary passed through, a hook failed or nothing is installed · 2 usage error`;

interface Check {
  readonly event: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface HarnessReport {
  /** A harness's name, or `git`. */
  readonly harness: string;
  readonly file: string;
  readonly installed: 'yes' | 'no' | 'partly';
  readonly checks: Check[];
}

export const command: Command = {
  summary: 'prove the installed hooks still block known violations',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, format: { type: 'string' } }, USAGE);
    if (positionals.length > 0) throw new UsageError(`doctor takes no positional arguments\n${USAGE}`);
    const format = oneOf(values.format, ['table', 'json'] as const, 'table', '--format');
    const repo = await openRepo(env.cwd, values.repo);
    const reports: HarnessReport[] = await Promise.all([...env.adapters.map((adapter) => checkHarness(adapter, repo.root, env)), checkGit(repo.root, env)]);
    const installed = reports.filter((r) => r.installed !== 'no');
    // A settings file that does not parse counts as not installed, and its failed check still fails the run.
    const ok = installed.length > 0 && installed.every((r) => r.installed === 'yes') && reports.every((r) => r.checks.every((c) => c.ok));
    if (format === 'json') env.stdout.write(`${JSON.stringify({ schemaVersion: 1, ok, harnesses: reports }, null, 2)}\n`);
    else {
      const lines: string[] = [];
      for (const r of reports) {
        lines.push(`${r.harness.padEnd(6)} ${r.file}  ${r.installed === 'yes' ? 'installed' : r.installed === 'no' ? 'not installed' : 'partly installed (run `the-loop hooks install` again)'}`);
        for (const c of r.checks) lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.event.padEnd(17)}${c.detail}`);
      }
      if (installed.length === 0) lines.push('', 'Nothing is installed, so nothing is enforced: run `the-loop hooks install`.');
      lines.push('', ok ? 'Every installed hook blocks the canaries and lets the control through.' : 'Some gate does not hold: see FAIL above.');
      env.stdout.write(`${lines.join('\n')}\n`);
    }
    return ok ? 0 : 1;
  },
};

async function checkHarness(adapter: HarnessAdapter, root: string, env: CommandEnv): Promise<HarnessReport> {
  const { file } = adapter.settings;
  let text: string | undefined;
  try {
    text = await readIfPresent(join(root, file), { within: root });
  } catch (error) {
    return { harness: adapter.name, file, installed: 'no', checks: [{ event: '(file)', ok: false, detail: `${file} cannot be read: ${(error as Error).message}` }] };
  }
  const parsed = text === undefined ? undefined : parseJson(text);
  if (parsed && !parsed.ok) return { harness: adapter.name, file, installed: 'no', checks: [{ event: '(file)', ok: false, detail: `${file} is not valid JSON` }] };
  const commands = adapter.settings.installed(parsed?.value);
  if (commands.size === 0) return { harness: adapter.name, file, installed: 'no', checks: [] };
  // Each event gets its own canary repository, so they run side by side.
  const checks = await Promise.all(
    adapter.hooks.events.map(async (event): Promise<Check> => {
      const line = commands.get(event.name);
      if (line === undefined) return { event: event.name, ok: false, detail: 'not installed' };
      return withCanaryRepo((dir) => checkHarnessEvent(adapter, event, line, root, dir, env));
    }),
  );
  return { harness: adapter.name, file, installed: checks.some((c) => c.detail === 'not installed') ? 'partly' : 'yes', checks };
}

async function checkHarnessEvent(adapter: HarnessAdapter, event: HookEvent, line: string, root: string, dir: string, env: CommandEnv): Promise<Check> {
  const { hooks } = adapter;
  const projectDir = (value: string): Record<string, string> => (hooks.projectDirVariable === undefined ? {} : { [hooks.projectDirVariable]: value });
  // The launcher is found where the harness finds it (this project); the hook itself runs in the canary repository.
  const split = splitCommandLine(line, projectDir(root));
  if (!split.ok) return { event: event.name, ok: false, detail: `cannot run without a shell: ${split.error}` };
  const argv = resolveLauncher(split.argv, root);
  // An installed hook pins the repository it checks (decision 072); doctor points it at the canaries instead.
  const pinned = argv.lastIndexOf('--repo');
  if (pinned !== -1 && pinned + 1 < argv.length) argv[pinned + 1] = dir;
  const hookEnv = { ...env.env, ...projectDir(dir), NO_COLOR: '1' };
  const run = async (id: string, payload: Record<string, unknown>) => {
    await writeFile(join(dir, '.the-loop', 'current'), `${id}\n`);
    // Harnesses start hooks in the project directory; the payload (and the project variable) point at the canaries.
    const result = await runHookCommand(argv, { cwd: root, stdin: JSON.stringify(payload), env: hookEnv, timeoutMs: 30_000 });
    const reply = parseJsonObject(result.stdout, 'the reply');
    return { ...result, reply: reply.ok ? reply.value : undefined };
  };
  const fileOf = (id: string, name: string) => join(dir, ...SPEC_DIR.split('/'), id, name);
  const problems: string[] = [];
  for (const canary of [undefined, ...CANARIES]) {
    const id = canary?.id ?? CONTROL;
    const out = await run(id, hooks.samplePayload(event.name, { sessionId: `doctor-${id}`, projectDir: dir, filePath: fileOf(id, canary?.file ?? 'tasks.md') }));
    if (out.exitCode !== 0 || out.reply === undefined) {
      problems.push(`${id}: ${out.ended}, ${out.reply === undefined ? 'no JSON reply' : 'reply'}${out.stderr.trim() ? ` (${out.stderr.trim().split('\n')[0]})` : ''}`);
      continue;
    }
    const said = hooks.replyText(out.reply);
    const text = event.takesContext ? said : out.stderr;
    if (event.kind === 'context') {
      const claim = `the-loop graph complete ${id} --node`;
      if (canary && !text.includes(canary.ruleId)) problems.push(`${id}: the context does not name the unmet ${canary.ruleId}`);
      if (canary === CANARIES[0] && !text.includes(claim)) problems.push(`${id}: the context does not name the claim command`);
      continue;
    }
    if (canary && !text.includes(canary.ruleId)) problems.push(`${id}: ${canary.violation} passed through (no ${canary.ruleId} in the reply)`);
    if (!canary && said !== '') problems.push(`${id}: the clean control item was not let through`);
  }
  if (problems.length > 0) return { event: event.name, ok: false, detail: problems.join('; ') };
  return { event: event.name, ok: true, detail: verified(adapter, event) };
}

// What a passing check proved, in words.
function verified(adapter: HarnessAdapter, event: HookEvent): string {
  if (event.kind === 'context') return 'injects the node and claim command';
  if (event.kind === 'stop') return 'blocks every canary, lets the control through';
  return event.takesContext ? "feeds back each canary's finding, silent on the control" : `reports the canaries (${adapter.title} cannot feed them back from this event)`;
}

async function checkGit(root: string, env: CommandEnv): Promise<HarnessReport> {
  const dir = await gitHooksDir(root).catch(() => undefined);
  if (dir === undefined) return { harness: 'git', file: '.git/hooks/pre-push', installed: 'no', checks: [] };
  const path = join(dir, 'pre-push');
  const file = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  let script: string | undefined;
  try {
    script = await readIfPresent(path);
  } catch (error) {
    return { harness: 'git', file, installed: 'no', checks: [{ event: 'pre-push', ok: false, detail: `${file} cannot be read: ${(error as Error).message}` }] };
  }
  const line = script !== undefined && isOwnPrePush(script) ? prePushCommand(script) : undefined;
  if (line === undefined) return { harness: 'git', file, installed: 'no', checks: [] };
  const check = await withCanaryRepo(async (repoDir) => {
    // "$0" names the hook; here it points at nothing so no chained user hook runs against canaries.
    const split = splitCommandLine(line, { '0': join(repoDir, '.no-hook') }, ['origin', join(repoDir, '.no-remote')]);
    if (!split.ok) return { event: 'pre-push', ok: false, detail: `cannot run without a shell: ${split.error}` };
    const argv = resolveLauncher(split.argv, root);
    const g = (args: string[]) => git(repoDir, ['-c', 'user.name=the-loop doctor', '-c', 'user.email=doctor@localhost', '-c', 'commit.gpgsign=false', ...args]);
    await g(['init', '-q', '-b', 'main']);
    await g(['add', '--', '.the-loop', `${SPEC_DIR}/${CONTROL}`]);
    await g(['commit', '-q', '-m', 'control']);
    const base = (await g(['rev-parse', 'HEAD'])).toString('utf8').trim();
    const push = async (ref: string, sha: string, remote: string) =>
      runHookCommand(argv, { cwd: repoDir, stdin: `refs/heads/${ref} ${sha} refs/heads/${ref} ${remote}\n`, env: { ...env.env, NO_COLOR: '1' }, timeoutMs: 60_000 });
    const problems: string[] = [];
    const control = await push('main', base, '0'.repeat(40));
    if (control.exitCode !== 0) problems.push(`${CONTROL}: the clean push was refused (${control.ended}${control.stderr.trim() ? `: ${control.stderr.trim().split('\n').pop()}` : ''})`);
    for (const canary of CANARIES) {
      await g(['checkout', '-q', '-b', canary.id, base]);
      await g(['add', '--', `${SPEC_DIR}/${canary.id}`]);
      await g(['commit', '-q', '-m', canary.violation]);
      const sha = (await g(['rev-parse', 'HEAD'])).toString('utf8').trim();
      const out = await push(canary.id, sha, base);
      if (out.exitCode === 0 || !out.stderr.includes(canary.ruleId)) problems.push(`${canary.id}: ${canary.violation} was pushed through (${out.ended})`);
    }
    return problems.length > 0
      ? { event: 'pre-push', ok: false, detail: problems.join('; ') }
      : { event: 'pre-push', ok: true, detail: 'refuses every canary push, lets the control through' };
  });
  return { harness: 'git', file, installed: 'yes', checks: [check] };
}

// Run an installed hook's command line (already split into argv) and say how it ended.
async function runHookCommand(argv: readonly string[], options: { cwd: string; stdin: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult & { ended: string }> {
  const request = { command: argv[0] ?? '', args: argv.slice(1), ...options };
  const result = await runProcess(request);
  return { ...result, ended: howItEnded(request, result) };
}

function withCanaryRepo<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  return withScratchDir('doctor', async (dir) => {
    await writeCanaryRepo(dir);
    return fn(dir);
  });
}
