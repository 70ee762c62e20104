// What every command is and gets: the contract between main.ts and the commands it loads.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { HarnessAdapter } from '@the-loop/core';
import { UsageError } from '../errors.js';
import type { Repo } from '../workspace/repo.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';

export { VERSION } from '../version.js';

/** A command: parses its own options, does its I/O, prints, and returns the exit code. */
export interface Command {
  readonly summary: string;
  /** The `--help` text; a function when it names the harnesses the command is given. */
  readonly usage: string | ((env: CommandEnv) => string);
  run(args: readonly string[], env: CommandEnv): Promise<number>;
}

/** What a command may touch, injected so tests and other callers can redirect it. */
export interface CommandEnv {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream;
  readonly now: () => Date;
  /** The harnesses the CLI answers hooks for, installs into and runs: passed in, never looked up. */
  readonly adapters: readonly HarnessAdapter[];
}

/** Parse a command's options strictly: an unknown option is a usage error, never ignored. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
}

/** Check an option's value against the allowed set. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, option: string): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${option} must be one of ${allowed.join(', ')}; got "${value}"`);
}

/**
 * `--pr N`: the pull request whose reviews approve under `approvals.source: github`. Under
 * `local` it has nothing to read, which is said on stderr rather than failing a shared CI step.
 */
export function pullRequestOption(value: string | undefined, repo: Repo, env: CommandEnv): number | undefined {
  if (value === undefined) return undefined;
  const number = /^[1-9]\d{0,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number)) throw new UsageError(`--pr takes a pull-request number; got "${value}"`);
  if (loadRuntimeConfig(repo).approvals.source !== 'github') {
    env.stderr.write(`the-loop: --pr ${number} is not used: approvals.source is local (approvals are graph approve records)\n`);
    return undefined;
  }
  return number;
}
