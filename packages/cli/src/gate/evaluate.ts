import {
  APPROVER_ROLE,
  evaluateGate,
  evaluateWorkItem,
  graphStateInput,
  loginsWithRole,
  type Diagnostic,
  type GateOutcome,
  type GraphState,
  type WorkItemInput,
  type WorkItemResult,
} from '@the-loop/core';
import { loadCollaborators } from '../workspace/collaborators.js';
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
  const input = await gatherInput(repo, id, options);
  return withForgeApprovals(repo, input, options, (withApprovals) => evaluateWorkItem(repo.config.graph, withApprovals), (result) => result.findings);
}

/** Evaluate the gate of one node (the recorded current node) from disk. */
export async function evaluateNodeFromDisk(repo: Repo, id: string, node: string, options: EvaluateOptions = {}): Promise<{ outcome: GateOutcome; findings: readonly Diagnostic[]; digest: string }> {
  const input = await gatherInput(repo, id, { ...options, recompute: true });
  const verdict = await withForgeApprovals(repo, input, options, (withApprovals) => evaluateGate(repo.config.graph, withApprovals, node), (result) => result.findings);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}

/** Everything the gate reads about a work item, from disk; under `approvals.source: github`, recorded approvals are set aside. */
async function gatherInput(repo: Repo, id: string, options: EvaluateOptions): Promise<WorkItemInput> {
  const [files, collaborators, read] = await Promise.all([
    readWorkItem(repo, id, artifactNames(repo.config.graph)),
    loadCollaborators(repo),
    options.state ? Promise.resolve({ ok: true as const, state: options.state }) : readGraphState(repo, id),
  ]);
  const input: WorkItemInput = { ...files, ...graphStateInput(read, options), approvers: loginsWithRole(collaborators, APPROVER_ROLE) };
  if (loadRuntimeConfig(repo).approvals.source === 'local') return input;
  return { ...input, approvalSource: 'github', approvals: [], ignoredApprovals: input.approvals };
}

// Reviews are read only when a gate asks for an approval: a work item that is not at a human
// node costs no call to GitHub. The second evaluation sees every approval the reviews hold.
async function withForgeApprovals<T>(repo: Repo, input: WorkItemInput, options: EvaluateOptions, evaluate: (input: WorkItemInput) => T, findingsOf: (result: T) => readonly Diagnostic[]): Promise<T> {
  const first = evaluate(input);
  if (input.approvalSource !== 'github' || !findingsOf(first).some((d) => d.ruleId === 'approval-missing')) return first;
  // parseRuntimeConfig refuses approvals.source: github without a `github:` section.
  const github = loadRuntimeConfig(repo).github;
  if (!github) return first;
  const approvals = await forgeApprovals(repo, github, input, await loadCollaborators(repo), { env: options.env ?? process.env, pullRequest: options.pullRequest });
  return evaluate({ ...input, ...approvals });
}
