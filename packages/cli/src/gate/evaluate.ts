import {
  APPROVER_ROLE,
  applyBaseline,
  baselineEntries,
  CONFIG_FILES,
  evaluateGate,
  evaluateWorkItem,
  graphStateInput,
  loginsWithRole,
  planFromFiles,
  type BaselineEntry,
  type Diagnostic,
  type GateOutcome,
  type VerificationInput,
  type WorkItemInput,
  type WorkItemResult,
} from '@the-loop/core';
import { readRecords } from '../evidence/records.js';
import { currentState } from '../evidence/state.js';
import { readGraphState } from '../state/graph-state-store.js';
import { loadBaseline } from '../workspace/baseline-file.js';
import { findingsDigest, sha256 } from '../workspace/digest.js';
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
 * Findings `.the-loop/baseline.json` accepts are marked `baselined` and fail nothing.
 */
export async function evaluateFromDisk(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemResult> {
  const [input, baseline] = await Promise.all([gatherInput(repo, id, options), loadBaseline(repo)]);
  const result = evaluateWorkItem(repo.config.graph, input, repo.config.gate);
  return baseline ? applyBaseline(result, input, baseline, sha256) : result;
}

/** A work item's findings as baseline entries, ignoring any baseline there is. */
export async function baselineEntriesFromDisk(repo: Repo, id: string): Promise<BaselineEntry[]> {
  const input = await gatherInput(repo, id, {});
  return baselineEntries(evaluateWorkItem(repo.config.graph, input, repo.config.gate), input, sha256);
}

/** Everything the gate reads about a work item, from disk. */
export async function gatherInput(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemInput> {
  const [files, state] = await Promise.all([readWorkItem(repo, id, artifactNames(repo.config.graph)), readGraphState(repo, id)]);
  return { ...files, ...graphStateInput(state, options), approvers: loginsWithRole(repo.collaborators, APPROVER_ROLE), verification: await verificationInput(repo, id, files) };
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
  const verdict = evaluateGate(repo.config.graph, input, node, repo.config.gate);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}
