import { escalateAt } from '@the-loop/core';
import { commitTransitions, type CommitEnv } from './commit-transitions.js';
import { statePathOf } from './graph-state-store.js';
import type { Repo } from '../workspace/repo.js';

/**
 * Persist a no-progress escalation in the work item's graph state, exactly as a transition
 * would: the `escalated` node is entered, the log and `conflicts.md` record it, and its
 * effects fire. A work item already escalated stays as it is. Returns the state file's path,
 * for the message.
 */
export async function persistEscalation(repo: Repo, id: string, node: string, reason: string, env: CommitEnv, findings: readonly string[] = []): Promise<string> {
  await commitTransitions(repo, id, env, 'escalate', async (state, now) => {
    const result = escalateAt(repo.config.graph, state, node, reason, now, { findings, tried: [] });
    return { results: result.ok ? [result] : [] };
  }, { onBrokenRuntimeConfig: 'skip-effects', withoutState: 'empty' });
  return statePathOf(repo, id);
}
