import {
  APPROVER_ROLE,
  CONFIG_FILES,
  evaluateGate,
  evaluateWorkItem,
  graphStateInput,
  loginsWithRole,
  planFromFiles,
  type Diagnostic,
  type GateOutcome,
  type GraphState,
  type VerificationInput,
  type WorkItemInput,
  type WorkItemResult,
} from '@the-loop/core';
import { loadCollaborators } from '../workspace/collaborators.js';
import { readRecords } from '../evidence/records.js';
import { currentState } from '../evidence/state.js';
import { readGraphState } from '../state/graph-state-store.js';
import { findingsDigest } from '../workspace/digest.js';
import { artifactNames, readWorkItem } from '../workspace/read-work-item.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
import type { Repo } from '../workspace/repo.js';
import { forgeApprovals } from './forge-approvals.js';

export interface EvaluateOptions {
  /** Ignore recorded graph state and derive everything from the artifacts. */
  readonly recompute?: boolean;
  /** The graph state to read approvals and opt-ins from, when a command holds a newer one than the file. */
  readonly state?: GraphState;
  /** The environment GitHub is reached with (the process's own when absent). */
  readonly env?: NodeJS.ProcessEnv;
  /** `--pr N`: the pull request whose reviews approve, under `approvals.source: github`. */
  readonly pullRequest?: number | undefined;
}

/**
 * Read one work item from disk and evaluate it: the one path every command and hook uses.
 * Approvals, approvers and the recorded pointer come from graph state (or, under
 * `approvals.source: github`, the pull request's reviews) and `.the-loop/collaborators.yaml`;
 * a corrupt state file fails the gate (`graph-state-invalid`).
 */
export async function evaluateFromDisk(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemResult> {
  return evaluateWorkItem(repo.config.graph, await gatherInput(repo, id, options));
}

/** Everything the gate reads about a work item, from disk, with the approvals its walk asks for. */
export async function gatherInput(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemInput> {
  return withReviews(repo, await readInput(repo, id, options), options, (input) => evaluateWorkItem(repo.config.graph, input).findings);
}

// Under `approvals.source: github`, recorded approvals are set aside: the reviews count instead.
async function readInput(repo: Repo, id: string, options: EvaluateOptions): Promise<WorkItemInput> {
  const [files, collaborators, read] = await Promise.all([
    readWorkItem(repo, id, artifactNames(repo.config.graph)),
    loadCollaborators(repo),
    options.state ? Promise.resolve({ ok: true as const, state: options.state }) : readGraphState(repo, id),
  ]);
  const input: WorkItemInput = { ...files, ...graphStateInput(read, options), approvers: loginsWithRole(collaborators, APPROVER_ROLE), verification: await verificationInput(repo, id, files) };
  if (loadRuntimeConfig(repo).approvals.source === 'local') return input;
  return { ...input, approvalSource: 'github', approvals: [], ignoredApprovals: input.approvals };
}

// Reviews are read only when an evaluation without them asks for an approval: a work item that
// is not at a human node costs no call to GitHub.
async function withReviews(repo: Repo, input: WorkItemInput, options: EvaluateOptions, findingsOf: (input: WorkItemInput) => readonly Diagnostic[]): Promise<WorkItemInput> {
  if (input.approvalSource !== 'github' || !findingsOf(input).some((d) => d.ruleId === 'approval-missing')) return input;
  // parseRuntimeConfig refuses approvals.source: github without a `github:` section.
  const github = loadRuntimeConfig(repo).github;
  if (!github) return input;
  return { ...input, ...(await forgeApprovals(repo, github, input, await loadCollaborators(repo), { env: options.env ?? process.env, pullRequest: options.pullRequest })) };
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
export async function evaluateNodeFromDisk(repo: Repo, id: string, node: string, options: EvaluateOptions = {}): Promise<{ outcome: GateOutcome; findings: readonly Diagnostic[]; digest: string }> {
  const graph = repo.config.graph;
  const input = await withReviews(repo, await readInput(repo, id, { ...options, recompute: true }), options, (read) => evaluateGate(graph, read, node).findings);
  const verdict = evaluateGate(graph, input, node);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}
