import { APPROVER_ROLE, CONFIG_FILES, evaluateGate, evaluateWorkItem, graphStateInput, loginsWithRole, planFromFiles, type Diagnostic, type GateOutcome, type VerificationInput, type WorkItemInput, type WorkItemResult } from '@the-loop/core';
import { loadCollaborators } from '../workspace/collaborators.js';
import { readRecords } from '../evidence/records.js';
import { currentState } from '../evidence/state.js';
import { readGraphState } from '../state/graph-state-store.js';
import { findingsDigest } from '../workspace/digest.js';
import { artifactNames, readWorkItem } from '../workspace/read-work-item.js';
import type { Repo } from '../workspace/repo.js';

export interface EvaluateOptions {
  /** Ignore recorded graph state and derive everything from the artifacts. */
  readonly recompute?: boolean;
}

/**
 * Read one work item from disk and evaluate it: the one path every command and hook uses.
 * Approvals, approvers and the recorded pointer come from graph state and
 * `.the-loop/collaborators.yaml`; a corrupt state file fails the gate (`graph-state-invalid`).
 */
export async function evaluateFromDisk(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemResult> {
  return evaluateWorkItem(repo.config.graph, await gatherInput(repo, id, options));
}

/** Everything the gate reads about a work item, from disk. */
export async function gatherInput(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemInput> {
  const [files, collaborators, state] = await Promise.all([readWorkItem(repo, id, artifactNames(repo.config.graph)), loadCollaborators(repo), readGraphState(repo, id)]);
  return { ...files, ...graphStateInput(state, options), approvers: loginsWithRole(collaborators, APPROVER_ROLE), verification: await verificationInput(repo, id, files) };
}

// The checks that apply, their records, and — only when there is a record to judge — the
// repository's state now, so a work item without evidence costs no git call.
async function verificationInput(repo: Repo, id: string, files: Pick<WorkItemInput, 'files' | 'dir'>): Promise<VerificationInput> {
  const plan = planFromFiles(repo.config.verification, files.files, files.dir);
  const records = await readRecords(repo, id, plan.checks.map((c) => c.id));
  const judged = plan.checks.filter((c) => { const read = records.get(c.id); return read !== undefined && 'record' in read; });
  const current = judged.length > 0 ? await currentState(repo, judged) : { unavailable: 'no record to compare' };
  return { config: repo.config.verification, configFile: repo.config.file ?? CONFIG_FILES[0], records, current };
}

/** Evaluate the gate of one node (the recorded current node) from disk. */
export async function evaluateNodeFromDisk(repo: Repo, id: string, node: string): Promise<{ outcome: GateOutcome; findings: readonly Diagnostic[]; digest: string }> {
  const input = await gatherInput(repo, id, { recompute: true });
  const verdict = evaluateGate(repo.config.graph, input, node);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}
