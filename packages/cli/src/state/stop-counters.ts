import { join } from 'node:path';
import { decideStop, decideStopFailure, StopCountersSchema, type StopCounter, type StopDecision, type StopFailureInput } from '@the-loop/hooks';
import type { WorkItemResult } from '@the-loop/core';
import { sha256 } from '../workspace/digest.js';
import { LOCAL_DIR, readStateFile, withLocalLock, writeStateFile } from './local-state.js';

export const COUNTERS_FILE = 'stop-counters.json';

// The counter of stops the-loop could not decide, one per harness: the problem is not a work item's.
const FAILURE_KEY = '(the-loop could not decide)';
// Counting a failure waits for the lock only briefly: the hook has already spent its time.
const FAILURE_LOCK_WAIT_MS = 1_000;

/**
 * Decide a stop with the no-progress counter kept in `.the-loop/local/` (per machine and
 * session, never checked in), under its lock: read the counter, decide, write it back. A
 * counters file that cannot be read is discarded (`note` says so) and the decision goes on.
 */
export async function decideStopWithState(
  root: string,
  input: { harness: string; result: WorkItemResult; cap: number; session: string | null },
  note: (text: string) => void,
): Promise<StopDecision> {
  return withCounters(root, `${input.harness}:${input.result.workItem}`, note, (previous) =>
    decideStop({ result: input.result, previous, cap: input.cap, session: input.session, digest: sha256 }),
  );
}

/**
 * Decide a stop the-loop could not evaluate (decision 070), counted like unchanged findings. When
 * not even the counter can be kept, the harness's own continuation flag bounds the loop.
 */
export async function decideFailedStop(
  root: string | undefined,
  input: Pick<StopFailureInput, 'problem' | 'hint' | 'continuing' | 'cap' | 'session'> & { harness: string },
  note: (text: string) => void,
): Promise<StopDecision> {
  const decide = (previous: StopCounter | undefined, counted: boolean) => decideStopFailure({ ...input, previous, counted, digest: sha256 });
  if (root === undefined) return decide(undefined, false);
  try {
    return await withCounters(root, `${input.harness}:${FAILURE_KEY}`, note, (previous) => decide(previous, true), FAILURE_LOCK_WAIT_MS);
  } catch (error) {
    note(`the stop counter cannot be kept either (${(error as Error).message})`);
    return decide(undefined, false);
  }
}

async function withCounters(
  root: string,
  key: string,
  note: (text: string) => void,
  decide: (previous: StopCounter | undefined) => StopDecision,
  timeoutMs?: number,
): Promise<StopDecision> {
  // Most stops leave the counter as it was (an item done or waiting on a human, a count already
  // escalated): decided on a read without the lock, they write nothing. The file is only ever
  // replaced whole, so this read sees one version of it, and answering from it is answering just
  // before whichever hook replaces it next. A stop that changes the counter, or a file that
  // cannot be read cleanly, takes the lock and decides again.
  let clean = true;
  const seen = await readStateFile(
    join(root, LOCAL_DIR),
    COUNTERS_FILE,
    StopCountersSchema,
    () => {
      clean = false;
    },
    root,
  );
  if (clean) {
    const previous = seen?.[key];
    const decision = decide(previous);
    if (sameCounter(previous, decision.counter)) return decision;
  }
  return withLocalLock(
    root,
    async (dir) => {
      const counters: Record<string, StopCounter> = (await readStateFile(dir, COUNTERS_FILE, StopCountersSchema, note)) ?? {};
      const decision = decide(counters[key]);
      if (decision.counter) counters[key] = decision.counter;
      else delete counters[key];
      await writeStateFile(dir, COUNTERS_FILE, counters);
      return decision;
    },
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

function sameCounter(a: StopCounter | undefined, b: StopCounter | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.digest === b.digest && a.count === b.count && a.session === b.session && a.escalated === b.escalated;
}
