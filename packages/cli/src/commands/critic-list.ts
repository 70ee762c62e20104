import { criticBinary, formatLocation, type CriticDeclaration } from '@the-loop/core';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { colorsFor } from '../format/colors.js';
import { columns } from '../format/findings.js';
import { openRepo } from '../workspace/repo.js';
import { loadReviews } from '../workspace/reviews.js';
import { oneOf, parseOptions, type CommandEnv } from './command.js';
import { findExecutable } from '../process/find-executable.js';

/** One row of `critic list`. */
export interface CriticListing {
  readonly name: string | null;
  readonly harness: string | null;
  readonly model: string | null;
  readonly binary: string | null;
  /** Where the executable was found, with the PATH and cwd the round would use. */
  readonly path: string | null;
  readonly available: boolean;
  readonly enabled: boolean;
  readonly error: string | null;
}

export async function criticList(args: readonly string[], env: CommandEnv, usage: string): Promise<number> {
  const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, format: { type: 'string' } }, usage);
  if (positionals.length > 0) throw new UsageError(`critic list takes no arguments\n${usage}`);
  const format = oneOf(values.format, ['table', 'json'] as const, 'table', '--format');
  const repo = await openRepo(env.cwd, values.repo);
  const reviews = loadReviews(repo);
  const critics = await Promise.all(reviews.critics.map((critic) => listCritic(critic, repo.root, env)));
  if (format === 'json') {
    env.stdout.write(`${JSON.stringify({ schemaVersion: 1, critics }, null, 2)}\n`);
    return 0;
  }
  if (critics.length === 0) {
    env.stdout.write('no critics configured (reviews.critics is empty); critic rounds will be recorded as unavailable\n');
    return 0;
  }
  const c = colorsFor(env.stdout, env.env);
  const rows = [
    ['name', 'harness/model', 'binary', 'available', 'enabled', 'error'].map((h) => c.bold(h)),
    ...critics.map((critic) => [
      critic.name ?? '—',
      `${critic.harness ?? '—'}/${critic.model ?? 'default'}`,
      critic.binary ?? '—',
      critic.available ? c.green('yes') : c.red('no'),
      critic.enabled ? 'yes' : c.dim('no'),
      critic.error ? c.red(critic.error) : '',
    ]),
  ];
  env.stdout.write(`${columns(rows).join('\n')}\n`);
  return 0;
}

async function listCritic(critic: CriticDeclaration, root: string, { env: inherited, adapters }: CommandEnv): Promise<CriticListing> {
  const binary = criticBinary(critic, adapters) ?? null;
  const problems = critic.problems.map((issue) => `${formatLocation(issue)}  ${issue.message}`);
  if (critic.entry && binary === null) problems.push(`no built-in adapter for harness "${critic.harness ?? ''}" (built-in: ${adapters.map((a) => a.name).join(', ')}); declare command and args`);
  // The same PATH and working directory the round will use: the entry's env over ours, in its cwd.
  const env = { ...inherited, ...(critic.entry?.env ?? {}) };
  const cwd = critic.entry?.cwd === undefined ? root : join(root, critic.entry.cwd);
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) problems.push(`the working directory ${critic.entry?.cwd ?? '.'} does not exist`);
  const path = binary === null ? undefined : await findExecutable(binary, env, cwd);
  return {
    name: critic.name ?? null,
    harness: critic.harness ?? null,
    model: critic.model ?? null,
    binary,
    path: path ?? null,
    available: path !== undefined,
    enabled: critic.enabled,
    error: problems.length > 0 ? problems.join('; ') : null,
  };
}
