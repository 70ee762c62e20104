import type { HarnessAdapter } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { applyChanges } from '../install/plan.js';
import { planGitTarget, planHarnessTarget, type TargetPlan } from '../install/targets.js';
import { splitCommandLine } from '../doctor/command-line.js';
import { git } from '../git/git.js';
import { parseOptions, type Command } from './command.js';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

function usage(adapters: readonly HarnessAdapter[]): string {
  const flags = [...adapters.map((a) => `[--${a.name}]`), '[--git]'].join(' ');
  const files = adapters.map((a) => `  ${a.settings.file} (${a.title})\n`).join('');
  return `Usage: the-loop hooks install ${flags} [--uninstall] [--command LAUNCHER] [--repo DIR]

Installs the-loop's hooks, merging into what is there:
${files}  git's pre-push hook (core.hooksPath honoured)
Every entry you already have is kept; running it again changes nothing. With no harness flag, all of them.
  --uninstall          remove only the-loop's own entries (a chained pre-push hook is restored)
  --command LAUNCHER   how the hooks start the-loop (default: the project's node_modules/.bin/the-loop)
Exit codes: 0 done · 2 usage error, or a file that is not valid JSON (nothing is written then)`;
}

export const command: Command = {
  summary: 'install the hooks for the harnesses and git',
  usage: (env) => usage(env.adapters),
  async run(args, env) {
    const USAGE = usage(env.adapters);
    const harnessFlags = Object.fromEntries(env.adapters.map((adapter) => [adapter.name, { type: 'boolean' as const }]));
    const { values, positionals } = parseOptions(
      args,
      { ...harnessFlags, git: { type: 'boolean' }, uninstall: { type: 'boolean' }, command: { type: 'string' }, repo: { type: 'string' } },
      USAGE,
    );
    if (positionals.length !== 1 || positionals[0] !== 'install') throw new UsageError(`the hooks command is \`the-loop hooks install\`\n${USAGE}`);
    const launcher = typeof values.command === 'string' ? values.command.trim() : undefined;
    // The harness runs the line through a shell, doctor without one: only a line both read alike
    // is installed (`#` would comment the rest out, and the hook would exit with the shell's 2).
    const split = launcher === undefined ? undefined : splitCommandLine(launcher, {});
    if (launcher !== undefined && (launcher === '' || /[\n\r]/.test(launcher) || !split?.ok)) {
      throw new UsageError(
        `--command must be a plain launcher such as \`npx the-loop\` or \`node tools/the-loop.mjs\`: words and quotes, no shell operators, variables, globs, ~, # or \\${split && !split.ok ? ` (${split.error})` : ''}`,
      );
    }
    const root = resolve(env.cwd, typeof values.repo === 'string' ? values.repo : '.');
    const chosen = (name: string): boolean => (values as Record<string, unknown>)[name] === true;
    const explicit = env.adapters.some((adapter) => chosen(adapter.name)) || chosen('git');
    const uninstall = values.uninstall === true;
    const plans: TargetPlan[] = [];
    // Plan everything first: one broken file means nothing is written anywhere.
    for (const adapter of env.adapters) if (!explicit || chosen(adapter.name)) plans.push(await planHarnessTarget(root, adapter, uninstall, launcher));
    if (!explicit || chosen('git')) {
      const inRepo = await git(root, ['rev-parse', '--git-dir']).then(() => true, () => false);
      if (inRepo) plans.push(await planGitTarget(root, uninstall, launcher));
      else if (chosen('git')) throw new UsageError(`${root} is not a git repository; --git needs one`);
      else env.stderr.write('the-loop: not a git repository; skipping the pre-push hook\n');
    }
    for (const plan of plans) await applyChanges(plan.changes);
    for (const plan of plans) env.stdout.write(`${plan.target.padEnd(6)} ${plan.file}  ${plan.verdict}\n`);
    if (!uninstall && launcher === undefined && !(await stat(join(root, 'node_modules', '.bin', 'the-loop')).catch(() => undefined))) {
      env.stderr.write('the-loop: the hooks start node_modules/.bin/the-loop, which is not installed here; add @the-loop/cli to the project or pass --command.\n');
    }
    return 0;
  },
};
