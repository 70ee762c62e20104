import { unknownSubcommand, type Command } from './command.js';

const USAGE = `Usage: the-loop critic list [--repo DIR] [--format table|json]
       the-loop critic run <name> (--prompt TEXT | --prompt-file PATH) [--repo DIR] [--cwd DIR]
                           [--work-item ID] [--spec-dir DIR] [--timeout SECONDS] [--output-file PATH]

  list   every critic in reviews.critics[]: its executable, whether it is on PATH, whether it is
         enabled, and why a broken entry cannot run. No critics configured is fine (exit 0).
  run    run exactly one named critic once and print one JSON envelope on stdout.
         Exit codes: 0 the round ran · 1 the round failed (envelope still printed) ·
         2 misconfigured (nothing spawned, nothing on stdout).`;

export const command: Command = {
  summary: 'list the configured critics, or run one critic round',
  usage: USAGE,
  async run(args, env) {
    const [sub, ...rest] = args;
    if (sub === 'list') return (await import('./critic-list.js')).criticList(rest, env, USAGE);
    if (sub === 'run') return (await import('./critic-run.js')).criticRun(rest, env, USAGE);
    throw unknownSubcommand('critic', sub, ['list', 'run']);
  },
};
