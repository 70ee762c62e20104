import { join } from 'node:path';
import { EXECUTION_LOG, LEARNINGS, RUN_USAGE, appendTableRow, appendToSection, type RunUsage } from '@the-loop/core';
import { READ_LIMITS } from '../limits.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { readIfPresent } from '../workspace/read-file.js';
import type { Repo } from '../workspace/repo.js';
import { withStateLock } from '../state/graph-state-store.js';

// What a run writes into the execution log, beside what its transitions write.
export const REVIEW_CYCLES = 'Review cycles';
export const REVIEW_GAPS = 'Review gaps';

/** How an edit of the execution log went: `skipped` when there is no log and the edit may not create one. */
export type LogEdit = { status: 'done' } | { status: 'skipped' | 'failed'; detail: string };

/**
 * Edit the work item's execution log under the graph-state lock (transitions edit it too).
 * A missing log is created only when `create` gives its first text: a log appearing early
 * would make the gate think a later node had started.
 */
export async function editExecutionLog(repo: Repo, id: string, edit: (text: string) => string, create?: string): Promise<LogEdit> {
  const path = join(repo.specRoot, id, EXECUTION_LOG);
  return withStateLock(repo, id, async () => {
    let text: string | undefined;
    try {
      text = await readIfPresent(path, { within: repo.root, maxBytes: READ_LIMITS.artifact });
    } catch (error) {
      return { status: 'failed', detail: `cannot read ${EXECUTION_LOG}: ${(error as Error).message}` };
    }
    if (text === undefined) {
      if (create === undefined) return { status: 'skipped', detail: `${EXECUTION_LOG} does not exist yet` };
      text = create;
    }
    try {
      await writeFileAtomic(path, edit(text));
    } catch (error) {
      return { status: 'failed', detail: `cannot write ${EXECUTION_LOG}: ${(error as Error).message}` };
    }
    return { status: 'done' };
  });
}

/** A row of the Run usage table: one node's harness runs in one run, summed. */
export function usageRow(at: string, requestId: string, node: string, runners: readonly string[], runs: number, usage: RunUsage): (text: string) => string {
  return (text) =>
    appendTableRow(text, RUN_USAGE, [
      ['When', at],
      ['Run', requestId],
      ['Node', node],
      ['Ran on', runners.join(' ')],
      ['Harness runs', String(runs)],
      ['Input tokens', figure(usage.inputTokens)],
      ['Output tokens', figure(usage.outputTokens)],
      ['Cost (USD)', figure(usage.costUsd)],
    ]);
}

/** A row of the Review cycles table, linking the round's file. */
export function reviewRow(round: { cycle: number; type: string; reviewer: string; outcome: string }, link: string): (text: string) => string {
  return (text) =>
    appendTableRow(text, REVIEW_CYCLES, [
      ['Cycle', String(round.cycle)],
      ['Type', round.type],
      ['Reviewer', round.reviewer],
      ['Outcome', round.outcome],
      ['Link', link],
    ]);
}

/** A line under Review gaps: a round no reviewer could run, stated instead of reported as converged. */
export function gapEntry(at: string, text: string): (log: string) => string {
  return (log) => appendToSection(log, REVIEW_GAPS, [`- ${at}: ${text}`]);
}

/** The run's total when the work item leaves the graph, and a Learnings entry that opens with its figures. */
export function closingEntries(at: string, requestId: string, nodes: number, runs: number, usage: RunUsage): (text: string) => string {
  return (text) => {
    const withTotal = usageRow(at, requestId, '(run total)', [], runs, usage)(text);
    const tokens = `${figure(usage.inputTokens)} input and ${figure(usage.outputTokens)} output tokens, ${usage.costUsd === null ? 'cost not reported' : `$${usage.costUsd}`}`;
    return appendToSection(withTotal, LEARNINGS, [`- ${at}: run ${requestId} took the work item out of the graph after ${nodes} node${nodes === 1 ? '' : 's'} and ${runs} harness run${runs === 1 ? '' : 's'} (${tokens}). What would make the next one cheaper?`]);
  };
}

function figure(value: number | null): string {
  return value === null ? '—' : String(value);
}
