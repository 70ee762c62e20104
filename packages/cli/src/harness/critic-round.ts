import {
  attribution,
  jsonAnswer,
  NO_USAGE,
  parseResultLike,
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
import { harnessRunFailure, type FailureReason } from './run-failure.js';

/** Why a round ended as it did: a stable code beside the human `error`. */
export type RoundReason = 'ran' | FailureReason | 'no-output';

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
  /** The critic printed more than the runner keeps (32 MB a stream): `output` and `stderr` hold only the start. */
  readonly truncated: boolean;
  /** The harness session the review ran in, when it reported one. */
  readonly sessionId: string | null;
  readonly usage: Usage;
}


function envelopeFor(critic: CriticEntry, invocation: Invocation, outcome: ProcessResult, adapters: readonly HarnessAdapter[]): { envelope: Envelope; structured: unknown } {
  const parsed =
    invocation.outputFormat === 'json'
      ? (adapters.find((adapter) => adapter.name === invocation.adapter)?.parseResult ?? parseResultLike)(outcome.stdout, outcome.exitCode ?? 1)
      : { text: outcome.stdout, isError: false, sessionId: null, usage: NO_USAGE, apiErrorStatus: null, structured: jsonAnswer(outcome.stdout) };
  const failure = harnessRunFailure(invocation, outcome, parsed);
  const [reason, error]: [RoundReason, string | null] = failure
    ? [failure.reason, failure.error]
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
    truncated: outcome.truncated,
    sessionId: parsed.sessionId,
    usage: parsed.usage,
  };
  return { envelope, structured: parsed.structured };
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
