import { decideStop, type Escalation, type StopCounter, type StopDecision } from '@the-loop/hooks';
import type { WorkItemResult } from '@the-loop/core';
import { LOCAL_DIR, readStateFile, withLocalLock, writeStateFile } from '../io/local-state.js';

export const COUNTERS_FILE = 'stop-counters.json';
export const ESCALATIONS_FILE = 'escalations.json';

/** An escalation as recorded on disk, for a human (and later the graph state) to pick up. */
export interface EscalationRecord extends Omit<Escalation, 'findings'> {
  readonly harness: string;
  readonly session: string | null;
  readonly at: string;
  readonly findings: readonly { ruleId: string; file: string; line?: number; message: string }[];
}

/**
 * Decide a stop with the no-progress counter kept in `.the-loop/local/`, under its lock:
 * read the counter, decide, write the counter back and record an escalation, atomically.
 */
export async function decideStopWithState(
  root: string,
  input: { harness: string; result: WorkItemResult; cap: number; session: string | null; now: Date },
): Promise<{ decision: StopDecision; escalationFile?: string }> {
  return withLocalLock(root, async (dir) => {
    const counters = await readStateFile<Record<string, StopCounter>>(dir, COUNTERS_FILE, {});
    const key = `${input.harness}:${input.result.workItem}`;
    const decision = decideStop({ result: input.result, previous: counters[key], cap: input.cap, session: input.session });
    if (decision.counter) counters[key] = decision.counter;
    else delete counters[key];
    await writeStateFile(dir, COUNTERS_FILE, counters);
    if (decision.kind === 'allow' && decision.escalation) {
      const records = await readStateFile<EscalationRecord[]>(dir, ESCALATIONS_FILE, []);
      const { findings, ...rest } = decision.escalation;
      records.push({
        ...rest,
        harness: input.harness,
        session: input.session,
        at: input.now.toISOString(),
        findings: findings.map((d) => ({ ruleId: d.ruleId, file: d.file, ...(d.line !== undefined ? { line: d.line } : {}), message: d.message })),
      });
      await writeStateFile(dir, ESCALATIONS_FILE, records);
      return { decision, escalationFile: `${LOCAL_DIR}/${ESCALATIONS_FILE}` };
    }
    return { decision };
  });
}
