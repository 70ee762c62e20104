import { type Command } from './command.js';
import { harnessHookUsage, runHarnessHook } from './hook-harness.js';

export const command: Command = {
  summary: 'answer a harness hook or git pre-push',
  usage: (env) => `${harnessHookUsage(env.adapters)}

       the-loop hook pre-push [--repo DIR] [--chain PATH] [<remote> [<url>]]
git's pre-push gate (see \`the-loop hook pre-push --help\`): fails closed, refusing the push on any error.`,
  async run(args, env) {
    if (args[0] === 'pre-push') {
      // Loaded only for git: a harness hook never pays for the git plumbing.
      const { runPrePush } = await import('./hook-pre-push.js');
      return runPrePush(args.slice(1), env);
    }
    return runHarnessHook(args, env);
  },
};
