import { decideStop, StopCountersSchema, type StopCounter, type StopDecision } from '@the-loop/hooks';
import type { WorkItemResult } from '@the-loop/core';
import { sha256 } from '../workspace/digest.js';
import { readStateFile, withLocalLock, writeStateFile } from './local-state.js';

export const COUNTERS_FILE = 'stop-counters.json';

/**
 * Decide a stop with the no-progress counter kept in `.the-loop/local/` (per machine and
 * session, never checked in), under its lock: read the counter, decide, write it back.
 */
export async function decideStopWithState(
  root: string,
  input: { harness: string; result: WorkItemResult; cap: number; session: string | null },
): Promise<StopDecision> {
  return withLocalLock(root, async (dir) => {
    const counters: Record<string, StopCounter> = (await readStateFile(dir, COUNTERS_FILE, StopCountersSchema)) ?? {};
    const key = `${input.harness}:${input.result.workItem}`;
    const decision = decideStop({ result: input.result, previous: counters[key], cap: input.cap, session: input.session, digest: sha256 });
    if (decision.counter) counters[key] = decision.counter;
    else delete counters[key];
    await writeStateFile(dir, COUNTERS_FILE, counters);
    return decision;
  });
}
