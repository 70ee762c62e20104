import { closest, type HarnessAdapter } from '@the-loop/core';
import { VERSION, type Command, type CommandEnv } from './commands/command.js';
import { unexpectedError, UsageError } from './errors.js';
import { colorEnabled } from './format/colors.js';
import { neutralizing } from './format/neutralize.js';
import { BUILT_IN_ADAPTERS } from './harness/adapters.js';
import { fdWriter, type ProcessOutput } from './process/fd-writer.js';

// Commands load lazily so `check` never pays for the critic runner or the hook dialects.
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  init: () => import('./commands/init.js'),
  new: () => import('./commands/new.js'),
  check: () => import('./commands/check.js'),
  report: () => import('./commands/report.js'),
  baseline: () => import('./commands/baseline.js'),
  graph: () => import('./commands/graph.js'),
  run: () => import('./commands/run.js'),
  critic: () => import('./commands/critic.js'),
  models: () => import('./commands/models.js'),
  hook: () => import('./commands/hook.js'),
  hooks: () => import('./commands/hooks.js'),
  doctor: () => import('./commands/doctor.js'),
  verify: () => import('./commands/verify.js'),
  proof: () => import('./commands/proof.js'),
};

function helpText(adapters: readonly HarnessAdapter[]): string {
  const harnesses = adapters.map((adapter) => adapter.title);
  return [
    'the-loop — an agent-driven development lifecycle, enforced by code',
    '',
    'Usage: the-loop <command> [options]',
    '',
    'Commands:',
    '  init                set a repository up: configuration, collaborators, templates (--preset NAME)',
    '  new <work-item>     start a work item from the templates (--bugfix)',
    '  check <work-item>   evaluate one work item\'s gates (--all or --changed-from REF for a set)',
    '  report              drift report over every work item under the spec root',
    '  baseline            record today\'s findings in .the-loop/baseline.json so only new ones fail',
    '  verify <work-item>  run the declared checks and record evidence bound to the repository state',
    '  proof <work-item>   print the completion proof (completion.v1): COMPLETE only on current evidence',
    '  graph <subcommand>  the lifecycle graph: show, status, advance, complete, force, approve',
    '  run <work-item>     drive a work item through the graph, one headless harness run per node',
    '  critic list|run     list the configured critics, or run one critic round (one JSON envelope)',
    '  models check        probe the models the critics declare; cache ok/refused verdicts',
    `  hook <event>        answer a harness hook (${harnesses.join(', ')}) or git pre-push`,
    `  hooks install       install the hooks for ${[...harnesses, 'git'].join(', ').replace(/, git$/, ' and git')} (--uninstall removes them)`,
    '  doctor              prove the installed hooks still block known violations',
    '',
    'Global options: --repo DIR (default: the project the current directory is in), --format, --no-color, --help, --version',
    'Exit codes: 0 ok · 1 gate unmet / round failed · 2 usage or configuration error',
    'Run `the-loop <command> --help` for a command\'s options.',
    '',
  ].join('\n');
}

/**
 * The entry of `report`'s worker threads: they run this same bundle, compiled through the same
 * code cache as the CLI, so a worker compiles next to nothing. Loaded lazily, as commands are.
 */
export async function reportWorker(): Promise<void> {
  await (await import('./report-worker.js')).serve();
}

export { useCodeCache, writeChunkCaches, writesCodeCaches } from './bundle-dir.js';

/** Entry point: runs one command and sets the process exit code once. */
export async function main(argv: readonly string[], env: CommandEnv = processEnv()): Promise<number> {
  const code = await runCli(argv, env);
  process.exitCode = code;
  return code;
}

export async function runCli(argv: readonly string[], given: CommandEnv): Promise<number> {
  const { args, env: options } = globalOptions(argv, given);
  // Whatever a command prints passes through here: no control character from an artifact, a
  // folder name or a critic reaches a terminal or a log raw (decision 073).
  const env = withFields(options, {
    stdout: neutralizing(options.stdout, colorEnabled(options.stdout, options.env)),
    stderr: neutralizing(options.stderr, colorEnabled(options.stderr, options.env)),
  });
  const [name, ...rest] = args;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      env.stdout.write(helpText(env.adapters));
      return name === undefined ? 2 : 0;
    }
    if (name === '--version' || name === '-v') {
      env.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const load = COMMANDS[name];
    if (!load) {
      const guess = closest(name, Object.keys(COMMANDS));
      throw new UsageError(`unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; run \`the-loop --help\` for the list`);
    }
    const { command } = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      env.stdout.write(`${typeof command.usage === 'string' ? command.usage : command.usage(env)}\n`);
      return 0;
    }
    return await command.run(rest, env);
  } catch (error) {
    if (error instanceof UsageError) {
      env.stderr.write(`the-loop: ${error.message}\n`);
      return error.exitCode;
    }
    env.stderr.write(`the-loop: internal error: ${unexpectedError(error, env.env)}\n`);
    return 2;
  }
}

// Options every command takes, read before the command's own: `--no-color` is NO_COLOR for this run.
function globalOptions(argv: readonly string[], env: CommandEnv): { args: string[]; env: CommandEnv } {
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  if (!own.includes('--no-color')) return { args: [...argv], env };
  const args = [...own.filter((arg) => arg !== '--no-color'), ...(end === -1 ? [] : argv.slice(end))];
  return { args, env: withFields(env, { env: { ...env.env, NO_COLOR: '1' } }) };
}

// The environment with some fields replaced. A spread would read every getter, and reading
// `stdin` opens it: a cost on every run that never reads it (all but the hooks).
function withFields(env: CommandEnv, fields: Partial<CommandEnv>): CommandEnv {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(env), ...Object.getOwnPropertyDescriptors(fields) }) as CommandEnv;
}

// The process's own outputs, once made.
const outputs: ProcessOutput[] = [];

/** Settles once everything written to the process's output has been written out, so that it may exit. */
export async function outputWritten(): Promise<void> {
  await Promise.all(outputs.map((output) => output.settled()));
}

function processEnv(): CommandEnv {
  // Written to the descriptors directly: `process.stdout` and `process.stderr` are created only
  // if a parent's non-blocking pipe makes a write wait.
  const stdout = fdWriter(1, () => process.stdout);
  const stderr = fdWriter(2, () => process.stderr);
  outputs.push(stdout, stderr);
  // A reader that stops early (`| head`) is not an error worth a stack trace.
  for (const stream of [stdout, stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout,
    stderr,
    // Opened when a command reads it (a hook): opening it costs every other run start-up time.
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    now: () => new Date(),
    adapters: BUILT_IN_ADAPTERS,
  };
}
