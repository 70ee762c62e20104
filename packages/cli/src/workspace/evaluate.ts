import { APPROVER_ROLE, compareDiagnostics, diagnostic, evaluateGate, evaluateWorkItem, loginsWithRole, type Diagnostic, type GateOutcome, type GraphState, type WorkItemInput, type WorkItemResult } from '@the-loop/core';
import { loadCollaborators } from './collaborators.js';
import { readGraphState, statePathOf } from '../state/graph-state-store.js';
import { artifactNames, readWorkItem, sha256 } from './read-work-item.js';
import type { Repo } from './repo.js';

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
  const { input, stateProblem } = await gatherInput(repo, id, options);
  const result = evaluateWorkItem(repo.config.graph, input);
  return stateProblem ? failClosed(result, stateProblem) : result;
}

/** Everything the gate reads about a work item, from disk. */
export async function gatherInput(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<{ input: WorkItemInput; state: GraphState | undefined; stateProblem: Diagnostic | undefined }> {
  const [files, collaborators, read] = await Promise.all([readWorkItem(repo, id, artifactNames(repo.config.graph)), loadCollaborators(repo), readGraphState(repo, id)]);
  const state = read.kind === 'ok' ? read.state : undefined;
  const stateProblem =
    read.kind === 'invalid'
      ? diagnostic({
          ruleId: 'graph-state-invalid',
          message: `The graph state cannot be used: ${read.issues.map((i) => i.message).join('; ')}.`,
          file: statePathOf(repo, id),
          position: { line: read.issues[0]!.line, column: read.issues[0]!.column },
          fix: 'Restore graph-state.json from version control; it is never reset silently.',
        })
      : undefined;
  const input: WorkItemInput = {
    ...files,
    approvals: state?.approvals ?? [],
    approvers: loginsWithRole(collaborators, APPROVER_ROLE),
    selectedOptIns: state?.selectedOptIns ?? [],
    ...(state && !options.recompute ? { recordedNode: state.currentNode } : {}),
  };
  return { input, state, stateProblem };
}

/** Evaluate the gate of one node (the recorded current node) from disk. */
export async function evaluateNodeFromDisk(repo: Repo, id: string, node: string): Promise<{ outcome: GateOutcome; findings: readonly Diagnostic[]; digest: string }> {
  const { input } = await gatherInput(repo, id, { recompute: true });
  const verdict = evaluateGate(repo.config.graph, input, node);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}

/** A digest of what is unmet, so the same findings twice running can be recognised. */
export function findingsDigest(findings: readonly Diagnostic[]): string {
  return sha256(JSON.stringify(findings.map((d) => [d.ruleId, d.file, d.line ?? 0, d.column ?? 0, d.message])));
}

function failClosed(result: WorkItemResult, problem: Diagnostic): WorkItemResult {
  const target = result.currentNode ?? result.nodes[result.nodes.length - 1]?.node;
  const finding = { ...problem, ...(target ? { node: target } : {}) };
  return {
    ...result,
    ok: false,
    nodes: result.nodes.map((n) => (n.node === target ? { ...n, outcome: 'block', findings: [...n.findings, finding].sort(compareDiagnostics) } : n)),
    findings: [...result.findings, finding].sort(compareDiagnostics),
  };
}
