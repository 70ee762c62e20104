import { UsageError } from '../errors.js';
import { applyChanges } from '../install/plan.js';
import { planGitTarget, planJsonTarget, type TargetPlan } from '../install/targets.js';
import { git } from '../io/git.js';
import { parseOptions, type Command } from '../main.js';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const USAGE = `Usage: the-loop hooks install [--claude] [--cursor] [--git] [--uninstall] [--command LAUNCHER] [--repo DIR]

Installs the-loop's hooks, merging into what is there: .claude/settings.json (Claude Code),
.cursor/hooks.json (Cursor) and git's pre-push hook (core.hooksPath honoured). Every entry you
already have is kept; running it again changes nothing. With no harness flag, all three.
  --uninstall          remove only the-loop's own entries (a chained pre-push hook is restored)
  --command LAUNCHER   how the hooks start the-loop (default: the project's node_modules/.bin/the-loop)
Exit codes: 0 done · 2 usage error, or a file that is not valid JSON (nothing is written then)`;

export const command: Command = {
  summary: 'install the hooks for Claude Code, Cursor and git',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(
      args,
      {
        claude: { type: 'boolean' },
        cursor: { type: 'boolean' },
        git: { type: 'boolean' },
        uninstall: { type: 'boolean' },
        command: { type: 'string' },
        repo: { type: 'string' },
      },
      USAGE,
    );
    if (positionals.length !== 1 || positionals[0] !== 'install') throw new UsageError(`the hooks command is \`the-loop hooks install\`\n${USAGE}`);
    const launcher = values.command?.trim();
    if (launcher !== undefined && (launcher === '' || /[\n\r;&|`<>]|\$\(/.test(launcher))) {
      throw new UsageError('--command must be a plain launcher such as `npx the-loop` or `node tools/the-loop.mjs` (no shell operators)');
    }
    const root = resolve(env.cwd, values.repo ?? '.');
    const explicit = values.claude || values.cursor || values.git;
    const uninstall = values.uninstall === true;
    const plans: TargetPlan[] = [];
    // Plan everything first: one broken file means nothing is written anywhere.
    if (!explicit || values.claude) plans.push(await planJsonTarget(root, 'claude', uninstall, launcher));
    if (!explicit || values.cursor) plans.push(await planJsonTarget(root, 'cursor', uninstall, launcher));
    if (!explicit || values.git) {
      const inRepo = await git(root, ['rev-parse', '--git-dir']).then(() => true, () => false);
      if (inRepo) plans.push(await planGitTarget(root, uninstall, launcher));
      else if (values.git) throw new UsageError(`${root} is not a git repository; --git needs one`);
      else env.stderr.write('the-loop: not a git repository; skipping the pre-push hook\n');
    }
    for (const plan of plans) await applyChanges(plan.changes);
    for (const plan of plans) env.stdout.write(`${plan.target.padEnd(7)}${plan.file}  ${plan.verdict}\n`);
    if (!uninstall && launcher === undefined && !(await stat(join(root, 'node_modules', '.bin', 'the-loop')).catch(() => undefined))) {
      env.stderr.write('the-loop: the hooks start node_modules/.bin/the-loop, which is not installed here; add @the-loop/cli to the project or pass --command.\n');
    }
    return 0;
  },
};
