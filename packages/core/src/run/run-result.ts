import type { Usage } from '../harness/adapter.js';

/** How a run ended. */
export type RunStatus = 'parked' | 'escalated' | 'complete' | 'budget-exhausted' | 'failed';

/** The exit code of a run that ended with `status`: 0 parked or complete, 1 otherwise (2 is a usage or configuration error, when nothing runs). */
export function runExitCode(status: RunStatus): 0 | 1 {
  return status === 'parked' || status === 'complete' ? 0 : 1;
}

/**
 * How the run left a node: `pass`/`skip` (the declared edge was taken), `wait` (parked on a
 * person), `escalated`, `failed` (the node could not be worked: its harness or every critic
 * could not run, or a code node's gate is unmet), `interrupted` (an earlier run was killed
 * mid-attempt; recorded on resume), `budget-exhausted` (the run's budget ended here).
 */
export type NodeRunOutcome = 'pass' | 'skip' | 'wait' | 'escalated' | 'failed' | 'interrupted' | 'budget-exhausted';

/** One node as a run worked it. */
export interface NodeRun {
  readonly node: string;
  /** Harness runs of the node's own work in this run (first try, re-dispatches, review rounds). */
  readonly attempts: number;
  readonly outcome: NodeRunOutcome;
  /** The last harness session the node's work ran in, or null. */
  readonly sessionId: string | null;
}

/** Tokens and cost summed over a run's harness runs; null where no run reported the figure. */
export interface RunUsage {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly costUsd: number | null;
}

export const NO_RUN_USAGE: RunUsage = { inputTokens: null, outputTokens: null, costUsd: null };

/** `total` plus what one harness run reported. */
export function addUsage(total: RunUsage, usage: Usage): RunUsage {
  const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  const cost = add(total.costUsd, usage.costUsd);
  // Dollar amounts summed in binary floating point grow noise digits (0.0006000000000000001).
  return { inputTokens: add(total.inputTokens, usage.inputTokens), outputTokens: add(total.outputTokens, usage.outputTokens), costUsd: cost === null ? null : Math.round(cost * 1e9) / 1e9 };
}

/** The one JSON document `the-loop run` prints on stdout. */
export interface RunResult {
  readonly schemaVersion: 1;
  readonly workItem: string;
  readonly requestId: string;
  readonly status: RunStatus;
  /** Where graph state has the work item when the run ends; null once it has left the graph. */
  readonly currentNode: string | null;
  readonly nodesRun: readonly NodeRun[];
  readonly usage: RunUsage;
  /** Why the run ended, in a sentence. */
  readonly reason: string;
}
