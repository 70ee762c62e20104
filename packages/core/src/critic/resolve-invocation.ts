import type { CriticEntry } from '../config/reviews.js';
import { placeholdersIn, substitutePlaceholders, type Placeholder } from '../config/reviews-schema.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import type { ProcessRequest } from '../process/process.js';

/** Everything a round knows besides the critic entry. The CLI gathers it; nothing here reads the machine. */
export interface RoundInputs {
  /** Absolute project root. */
  readonly projectRoot: string;
  /** Joins path segments the platform's way (the CLI passes node:path's `join`): core does no path arithmetic itself. */
  readonly join: (...segments: string[]) => string;
  /** The spec root relative to the project root (`docs/specs`). */
  readonly specDir: string;
  readonly workItem?: string | undefined;
  readonly prompt: string;
  /** Absolute path of a file holding exactly `prompt`. */
  readonly promptFile: string;
  /** An absolute working directory chosen for this round (`--cwd`); wins over the entry's. */
  readonly cwd?: string | undefined;
  /** Seconds for this round (`--timeout`); wins over the entry's. */
  readonly timeoutSeconds?: number | undefined;
  /** The environment the CLI inherited; the entry's `env` is laid over it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The JSON Schema the review must answer to, for a built-in harness that enforces one (an orchestrated round). */
  readonly answerSchema?: Readonly<Record<string, unknown>> | undefined;
}

/** The process a critic round starts, and how to read what it prints. */
export interface Invocation extends ProcessRequest {
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string | undefined;
  readonly outputFormat: 'text' | 'json';
  /** The built-in adapter whose result format the output is in; undefined for a command. */
  readonly adapter: string | undefined;
}

export type InvocationResult = { ok: true; invocation: Invocation } | { ok: false; reason: string };

/**
 * Turn a critic entry into the process a round starts. A built-in harness's argv comes
 * from its adapter's one-shot argv — the same function the orchestrator uses — so a new
 * adapter is usable as a critic with no change here. An explicit command wins over a harness.
 */
export function resolveInvocation(critic: CriticEntry, inputs: RoundInputs, adapters: readonly Pick<HarnessAdapter, 'name' | 'binary' | 'oneShot'>[]): InvocationResult {
  const { join } = inputs;
  const cwd = inputs.cwd ?? (critic.cwd === undefined ? inputs.projectRoot : join(inputs.projectRoot, critic.cwd));
  const env = overlay(inputs.env, critic.env);
  const timeoutMs = Math.round((inputs.timeoutSeconds ?? critic.timeoutSeconds) * 1000);
  const base = { cwd, env, timeoutMs };

  if (critic.command !== undefined) {
    const used = new Set(critic.args.flatMap(placeholdersIn));
    if ((used.has('workItem') || used.has('specDir')) && inputs.workItem === undefined) {
      return { ok: false, reason: `critic "${critic.name}" passes {workItem} or {specDir}; give the round a work item (--work-item)` };
    }
    const values: Record<Placeholder, string> = {
      prompt: inputs.prompt,
      promptFile: inputs.promptFile,
      model: critic.model ?? '',
      workItem: inputs.workItem ?? '',
      specDir: inputs.workItem === undefined ? '' : join(inputs.projectRoot, inputs.specDir, inputs.workItem),
      cwd,
    };
    const args = critic.args.map((arg) => substitutePlaceholders(arg, values));
    return { ok: true, invocation: { ...base, command: critic.command, args, stdin: undefined, outputFormat: critic.outputFormat ?? 'text', adapter: undefined } };
  }

  const adapter = adapters.find((candidate) => candidate.name === critic.harness);
  if (!adapter) {
    const known = adapters.map((candidate) => candidate.name).join(', ');
    return { ok: false, reason: `critic "${critic.name}": no built-in adapter for harness "${critic.harness ?? ''}" (built-in: ${known}); declare command and args to run it` };
  }
  const outputFormat = critic.outputFormat ?? 'json';
  const oneShot = adapter.oneShot({ prompt: inputs.prompt, promptFile: inputs.promptFile, model: critic.model, outputFormat, answerSchema: inputs.answerSchema });
  return { ok: true, invocation: { ...base, command: adapter.binary, args: oneShot.args, stdin: oneShot.stdin, outputFormat, adapter: adapter.name } };
}

function overlay(inherited: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) if (value !== undefined) env[key] = value;
  return Object.assign(env, extra);
}

/** The executable a critic runs, whether or not the entry is otherwise valid. */
export function criticBinary(critic: { command?: string | undefined; harness?: string | undefined }, adapters: readonly Pick<HarnessAdapter, 'name' | 'binary'>[]): string | undefined {
  if (critic.command !== undefined) return critic.command;
  return adapters.find((candidate) => candidate.name === critic.harness)?.binary;
}

/** `[<harness>/<model>]`: whose words a finding is. A command critic without a harness is named by its entry. */
export function attribution(critic: { name?: string | undefined; harness?: string | undefined; model?: string | undefined }): string {
  return `[${critic.harness ?? critic.name ?? 'critic'}/${critic.model ?? 'default'}]`;
}
