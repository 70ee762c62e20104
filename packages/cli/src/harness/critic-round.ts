import {
  attribution,
  jsonAnswer,
  NO_USAGE,
  parseResultLike,
  parseResultObject,
  resolveInvocation,
  type CriticEntry,
  type HarnessAdapter,
  type Invocation,
  type ProcessResult,
  type RoundInputs,
  type Usage,
} from '@the-loop/core';
import { runOnPath } from '../process/run-process.js';
import { withHooksOff } from './hooks-off.js';

/** Why a round ended as it did: a stable code beside the human `error`. */
export type RoundReason = 'ran' | 'binary-missing' | 'spawn-failed' | 'timeout' | 'exit-nonzero' | 'is-error' | 'no-output';

/** The one document `critic run` prints (docs/critics.md). */
export interface Envelope {
  readonly schemaVersion: 1;
  readonly critic: string;
  readonly harness: string | null;
  readonly model: string | null;
  readonly attribution: string;
  readonly ok: boolean;
  readonly reason: RoundReason;
  readonly exitCode: number | null;
  readonly durationSeconds: number;
  readonly output: string;
  readonly error: string | null;
  readonly stderr: string;
  /** The harness session the review ran in, when it reported one. */
  readonly sessionId: string | null;
  readonly usage: Usage;
}


function envelopeFor(critic: CriticEntry, invocation: Invocation, outcome: ProcessResult, adapters: readonly HarnessAdapter[]): { envelope: Envelope; structured: unknown } {
  const parsed =
    invocation.outputFormat === 'json'
      ? (adapters.find((adapter) => adapter.name === invocation.adapter)?.parseResult ?? parseResultLike)(outcome.stdout, outcome.exitCode ?? 1)
      : { text: outcome.stdout, isError: false, sessionId: null, usage: NO_USAGE, apiErrorStatus: null, structured: jsonAnswer(outcome.stdout) };
  const seconds = invocation.timeoutMs / 1000;
  const [reason, error]: [RoundReason, string | null] =
    outcome.spawnError === 'not-found'
      ? ['binary-missing', `${invocation.command} was not found on PATH (or is not executable) from ${invocation.cwd}`]
      : outcome.spawnError !== undefined
        ? ['spawn-failed', `${invocation.command} could not be started: ${outcome.spawnError}`]
        : outcome.timedOut
          ? ['timeout', `timed out after ${seconds} s; the process group was terminated`]
          : outcome.exitCode !== 0
            ? ['exit-nonzero', `exited with ${outcome.exitCode === null ? `signal ${outcome.signal ?? 'unknown'}` : `code ${outcome.exitCode}`}${cause(outcome, parsed.text)}`]
            : parsed.isError
              ? ['is-error', `the harness reported an error: ${firstLine(parsed.text)}`]
              : parsed.text.trim() === ''
                ? // Silence must not pass for "zero findings": it would end the loop on a review that never happened.
                  ['no-output', 'the critic exited 0 but printed no review']
                : ['ran', null];
  const envelope: Envelope = {
    schemaVersion: 1,
    critic: critic.name,
    harness: critic.harness ?? null,
    model: critic.model ?? null,
    attribution: attribution(critic),
    ok: reason === 'ran',
    reason,
    exitCode: outcome.exitCode,
    durationSeconds: Math.round(outcome.durationMs) / 1000,
    output: parsed.text,
    error,
    stderr: outcome.stderr,
    sessionId: parsed.sessionId,
    usage: parsed.usage,
  };
  return { envelope, structured: parsed.structured };
}

// Why a harness failed: the text of a result object that reports the error (Claude Code puts
// the cause there, and only a diagnostic tag on stderr), else the end of stderr.
function cause(outcome: ProcessResult, text: string): string {
  const reported = parseResultObject(outcome.stdout)?.['is_error'] === true ? firstLine(text) : '';
  return reported !== '' ? `: ${reported}` : tail(outcome.stderr);
}

function tail(stderr: string): string {
  const last = stderr.trim().split(/\r?\n/).slice(-3).join(' / ');
  return last === '' ? '' : `: ${last.slice(0, 500)}`;
}

function firstLine(text: string): string {
  return (text.trim().split(/\r?\n/, 1)[0] ?? '').slice(0, 500);
}

/** One critic round run: its envelope and the structured answer read from it (undefined when it printed none). */
export type CriticRound = { ok: true; envelope: Envelope; structured: unknown } | { ok: false; reason: string };

/**
 * Run one round of one critic: its invocation (a built-in harness's one-shot argv, or its
 * declared command), with the-loop's hooks stepped aside in its session. `ok: false` when the
 * entry cannot be turned into a process (nothing was started).
 */
export async function runCriticRound(critic: CriticEntry, inputs: RoundInputs, adapters: readonly HarnessAdapter[]): Promise<CriticRound> {
  const resolved = resolveInvocation(critic, inputs, adapters);
  if (!resolved.ok) return { ok: false, reason: resolved.reason };
  const outcome = await runOnPath({ ...resolved.invocation, env: withHooksOff(resolved.invocation.env) });
  return { ok: true, ...envelopeFor(critic, resolved.invocation, outcome, adapters) };
}
