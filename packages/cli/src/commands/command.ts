// What every command is and gets: the contract between main.ts and the commands it loads.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest, type HarnessAdapter } from '@the-loop/core';
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
  /**
   * The descriptor `stdin` reads, when it is the process's own: a payload already written is read
   * from it before the stream is made, which for a pipe or socket loads Node's socket modules.
   */
  readonly stdinFd?: number;
  readonly now: () => Date;
  /** The harnesses the CLI answers hooks for, installs into and runs: passed in, never looked up. */
  readonly adapters: readonly HarnessAdapter[];
}

/**
 * Parse a command's options strictly: an unknown option is a usage error, never ignored. The
 * error is one line in the product's words (a did-you-mean for a misspelling), never the
 * parser's text, and points at the command's `--help`.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch {
    throw new UsageError(`${optionProblem(args, options)}; run \`${commandOf(usage)} --help\` for its options`);
  }
}

// What is wrong with the options, read from the parser's tokens (a lenient parse never throws).
function optionProblem(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  const known = Object.keys(options).map((name) => `--${name}`);
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option === undefined) {
      const guess = token.rawName.startsWith('--') ? closest(token.rawName, known) : undefined;
      return `unknown option ${token.rawName}${guess ? ` (did you mean ${guess}?)` : ''}`;
    }
    const flag = `--${token.name}`;
    if (option.type === 'boolean' && token.inlineValue) return `${flag} takes no value (got "${token.rawName}=${token.value}")`;
    if (option.type === 'string' && token.value === undefined) return `${flag} needs a value`;
    if (option.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      return `${flag} needs a value, and "${token.value}" looks like an option (write ${flag}=${token.value} if it is the value)`;
    }
  }
  return 'the options cannot be read';
}

// `the-loop graph` from "Usage: the-loop graph <subcommand> …": the words before the first placeholder.
function commandOf(usage: string): string {
  return /^Usage: (the-loop(?: [a-z][a-z-]*)*)/.exec(usage)?.[1] ?? 'the-loop';
}

/** A subcommand that is not one of `known`: a one-line usage error with a did-you-mean. */
export function unknownSubcommand(command: string, given: string | undefined, known: readonly string[]): UsageError {
  if (given === undefined || given.startsWith('-')) return new UsageError(`${command} needs a subcommand: ${known.join(', ')}`);
  const guess = closest(given, known);
  return new UsageError(`unknown ${command} subcommand "${given}"${guess ? ` (did you mean "${guess}"?)` : ''}; it is one of ${known.join(', ')}`);
}

/** Check an option's value against the allowed set. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, option: string): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const guess = closest(value, allowed);
  throw new UsageError(`${option} must be one of ${allowed.join(', ')}; got "${value}"${guess ? ` (did you mean "${guess}"?)` : ''}`);
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
