import type { HarnessAdapter } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { applyChanges } from '../install/plan.js';
import { planGitTarget, planHarnessTarget, type TargetPlan } from '../install/targets.js';
import { splitCommandLine } from '../doctor/command-line.js';
import { git } from '../git/git.js';
import { findRepoRoot } from '../workspace/repo.js';
import { parseOptions, unknownSubcommand, type Command, type CommandEnv } from './command.js';
import { bundleDir } from '../bundle-dir.js';
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';

function usage(adapters: readonly HarnessAdapter[]): string {
  const flags = [...adapters.map((a) => `[--${a.name}]`), '[--git]'].join(' ');
  const files = adapters.map((a) => `  ${a.settings.file} (${a.title})\n`).join('');
  return `Usage: the-loop hooks install ${flags} [--uninstall] [--command LAUNCHER] [--repo DIR]

Installs the-loop's hooks, merging into what is there:
${files}  git's pre-push hook (core.hooksPath honoured)
Every entry you already have is kept; running it again changes nothing. With no harness flag, all of them.
  --uninstall          remove only the-loop's own entries (a chained pre-push hook is restored)
  --command LAUNCHER   how the hooks start the-loop (default: the project's node_modules/.bin/the-loop,
                       else this install's own launcher by its absolute path)
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
    if (positionals.length !== 1 || positionals[0] !== 'install') throw unknownSubcommand('hooks', positionals[0], ['install']);
    const given = typeof values.command === 'string' ? values.command.trim() : undefined;
    // The harness runs the line through a shell, doctor without one: only a line both read alike
    // is installed (`#` would comment the rest out, and the hook would exit with the shell's 2).
    const split = given === undefined ? undefined : splitCommandLine(given, {});
    if (given !== undefined && (given === '' || /[\n\r]/.test(given) || !split?.ok)) {
      throw new UsageError(
        `--command must be a plain launcher such as \`npx the-loop\` or \`node tools/the-loop.mjs\`: words and quotes, no shell operators, variables, globs, ~, # or \\${split && !split.ok ? ` (${split.error})` : ''}`,
      );
    }
    const root = typeof values.repo === 'string' ? resolve(env.cwd, values.repo) : await findRepoRoot(env.cwd);
    const uninstall = values.uninstall === true;
    const launcher = given ?? (uninstall ? undefined : await installedLauncher(root, env));
    const chosen = (name: string): boolean => (values as Record<string, unknown>)[name] === true;
    const explicit = env.adapters.some((adapter) => chosen(adapter.name)) || chosen('git');
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
    return 0;
  },
};

/**
 * The command the hooks start when --command is not given: the project's own install
 * (node_modules/.bin/the-loop, each harness's default) when it has one, else the install that is
 * running now, by its absolute path — so the hooks run the command this install provides.
 */
async function installedLauncher(root: string, env: CommandEnv): Promise<string | undefined> {
  if (await fs.stat(join(root, 'node_modules', '.bin', 'the-loop')).catch(() => undefined)) return undefined;
  const own = ownLauncher();
  const word = own === undefined ? undefined : shellWord(own);
  if (word === undefined) {
    env.stderr.write('the-loop: the hooks start node_modules/.bin/the-loop, which is not installed here; add @the-loop/cli to the project (npm install -D @the-loop/cli) or pass --command.\n');
    return undefined;
  }
  env.stderr.write(`the-loop: this project has no node_modules/.bin/the-loop, so the hooks start this install: ${own}. \`npm install -D @the-loop/cli\` pins one in the project; run hooks install again then to use it.\n`);
  return word;
}

// The launcher script of the running install, when it runs from its bundle.
function ownLauncher(): string | undefined {
  const dir = bundleDir();
  return dir === undefined ? undefined : join(dir, '..', 'bin', 'the-loop.cjs');
}

// A path as one word of a hook's command line; undefined when no plain quoting can carry it.
function shellWord(path: string): string | undefined {
  if (/^[\w@%+=:,./-]+$/.test(path)) return path;
  return /["$`\\\n\r]/.test(path) ? undefined : `"${path}"`;
}
