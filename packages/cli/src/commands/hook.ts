import { type Command } from '../main.js';
import { HARNESS_HOOK_USAGE, runHarnessHook } from '../hook/harness-hook.js';

const USAGE = `${HARNESS_HOOK_USAGE}

       the-loop hook pre-push [--repo DIR] [--chain PATH] [<remote> [<url>]]
git's pre-push gate (see \`the-loop hook pre-push --help\`): fails closed, refusing the push on any error.`;

export const command: Command = {
  summary: 'answer a harness hook (Claude Code, Cursor) or git pre-push',
  usage: USAGE,
  async run(args, env) {
    if (args[0] === 'pre-push') {
      // Loaded only for git: a harness hook never pays for the git plumbing.
      const { runPrePush } = await import('../hook/pre-push.js');
      return runPrePush(args.slice(1), env);
    }
    return runHarnessHook(args, env);
  },
};
