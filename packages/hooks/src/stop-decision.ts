import * as v from 'valibot';
import { builtOnFirstUse, findingLines, findingWithFix, findingsKey, type Diagnostic, type WorkItemResult } from '@the-loop/core';
import { blockingFindings, currentNodeOf, waitsOnHuman } from './blocking-findings.js';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const StopCounterSchema = v.strictObject({
    /** Digest of the findings the last block named. */
    digest: v.string(),
    /** How many stops in a row were blocked with exactly these findings. */
    count: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** The harness session the count belongs to; a new session starts a new count. */
    session: v.nullable(v.string()),
    /** The cap was reached for this digest in this session: further stops are allowed. */
    escalated: v.boolean(),
  });

  const StopCountersSchema = v.record(v.string(), StopCounterSchema);
  return { StopCounterSchema, StopCountersSchema };
});

/** The no-progress counter kept between stop events for one work item and harness. */
export const StopCounterSchema = builtOnFirstUse(() => schemas.StopCounterSchema);

/** The counters file: one counter per `<harness>:<work item>`. */
export const StopCountersSchema = builtOnFirstUse(() => schemas.StopCountersSchema);
export type StopCounter = Readonly<v.InferOutput<typeof StopCounterSchema>>;

/** What the cap hands to a human when an agent stops making progress. */
export interface Escalation {
  readonly workItem: string;
  readonly node: string | null;
  readonly digest: string;
  readonly repeats: number;
  readonly findings: readonly Diagnostic[];
  readonly reason: string;
}

export type StopDecision =
  | {
      readonly kind: 'allow';
      /** Why the stop is allowed, for the log line on stderr. */
      readonly why: string;
      /** The counter to keep; undefined clears it. */
      readonly counter: StopCounter | undefined;
      readonly escalation?: Escalation;
    }
  | { readonly kind: 'block'; readonly reason: string; readonly counter: StopCounter; readonly findings: readonly Diagnostic[] };

export interface StopInput {
  readonly result: WorkItemResult;
  readonly previous: StopCounter | undefined;
  /** Consecutive blocks allowed for the same findings before the stop goes through. */
  readonly cap: number;
  readonly session: string | null;
  /** The digest function findings are kept under (SHA-256 in the CLI): injected, so this package stays pure. */
  readonly digest: (text: string) => string;
}

/**
 * Decide a stop event. Allow when the item is complete or parked on a human (a
 * continuation must never push an agent past a human gate); otherwise block with the
 * findings as the next step, at most `cap` times in a row for the same findings in one
 * session, then allow and escalate. A change in the findings is progress and resets the count.
 */
export function decideStop({ result, previous, cap, session, digest: hash }: StopInput): StopDecision {
  const node = currentNodeOf(result);
  if (waitsOnHuman(result)) {
    return { kind: 'allow', why: `${result.workItem} waits on a human at "${node?.node}"; stopping hands it over`, counter: undefined };
  }
  const findings = blockingFindings(result);
  if (findings.length === 0) {
    return { kind: 'allow', why: result.ok ? `${result.workItem}: every gate passes` : `${result.workItem}: nothing an agent can fix is unmet`, counter: undefined };
  }
  const digest = hash(findingsKey(findings));
  const same = previous !== undefined && previous.digest === digest && previous.session === session;
  if (same && previous.escalated) {
    return { kind: 'allow', why: `${result.workItem}: already escalated with these findings; a human has to look`, counter: previous };
  }
  const count = same ? previous.count : 0;
  if (count >= cap) {
    const reason = `the same ${findings.length} finding${findings.length === 1 ? '' : 's'} survived ${count} continuation${count === 1 ? '' : 's'} in a row (cap ${cap})`;
    return {
      kind: 'allow',
      why: `${result.workItem}: no progress, escalated: ${reason}`,
      counter: { digest, count, session, escalated: true },
      escalation: { workItem: result.workItem, node: node?.node ?? result.currentNode, digest, repeats: count, findings, reason },
    };
  }
  return { kind: 'block', reason: continuation(result, findings), counter: { digest, count: count + 1, session, escalated: false }, findings };
}

// Read by the agent as its next instruction: on task, concrete, every finding with its place.
function continuation(result: WorkItemResult, findings: readonly Diagnostic[]): string {
  const node = currentNodeOf(result)?.node ?? result.currentNode;
  const lines = [
    `Work item ${result.workItem} is not done${node ? `: the gate of node "${node}" is not met` : ''}. Next step: resolve ${findings.length === 1 ? 'this finding' : `these ${findings.length} findings`}, then stop again.`,
    ...findingLines(result.workItem, findings, findingWithFix),
  ];
  if (node) lines.push(`When the gate passes, claim the node with: the-loop graph complete ${result.workItem} --node ${node}`);
  return lines.join('\n');
}

export interface StopFailureInput {
  /** What kept the-loop from deciding, in one line (a configuration error with its file and line, a deadline). */
  readonly problem: string;
  /** What the agent can do about it, when anything. */
  readonly hint: string;
  readonly previous: StopCounter | undefined;
  /** False when no counter can be kept (machine-local state cannot be written): the harness's own flag bounds the loop then. */
  readonly counted: boolean;
  /** The harness says this stop follows a continuation a stop hook asked for. */
  readonly continuing: boolean;
  readonly cap: number;
  readonly session: string | null;
  readonly digest: (text: string) => string;
}

/**
 * Decide a stop the-loop could not evaluate (decision 070). Failing closed, it blocks with the
 * problem as the next step; a broken gate must never trap a session, so the same problem
 * blocks at most `cap` times in a row in a session, like unchanged findings do. When no count
 * can be kept at all, a stop that already follows a continuation goes through, so the session
 * alternates at worst and never loops.
 */
export function decideStopFailure({ problem, hint, previous, counted, continuing, cap, session, digest: hash }: StopFailureInput): StopDecision {
  const digest = hash(`the-loop could not decide\u0000${problem}`);
  if (!counted && continuing) {
    return { kind: 'allow', why: `could not check this stop (${problem}) and cannot count repeats; the harness is already continuing, so this stop goes through`, counter: undefined };
  }
  const same = previous !== undefined && previous.digest === digest && previous.session === session;
  if (same && previous.escalated) return { kind: 'allow', why: `could not check this stop again (${problem}); already let through once for it`, counter: previous };
  const count = same ? previous.count : 0;
  if (count >= cap) {
    return {
      kind: 'allow',
      why: `could not check ${count} stops in a row (${problem}); letting this one through (cap ${cap}) — \`the-loop doctor\` shows what is wrong`,
      counter: { digest, count, session, escalated: true },
    };
  }
  const reason = [
    `the-loop could not check whether the work is done, so it holds this stop: ${problem}.`,
    `Next step: ${hint} Then stop again. After ${cap} stops with this same problem the stop goes through.`,
  ].join('\n');
  return { kind: 'block', reason, counter: { digest, count: count + 1, session, escalated: false }, findings: [] };
}
