import { parseArtifact } from '../artifact/parse-artifact.js';
import type { Diagnostic } from '../diagnostic.js';
import { blockingFindings } from '../gate/blocking.js';
import { evaluateWorkItem, mainLine, verificationView } from '../gate/evaluate-work-item.js';
import { DEFAULT_GATE_SETTINGS, type GateSettings } from '../gate/settings.js';
import type { WorkItemInput } from '../gate/inputs.js';
import type { Graph } from '../graph/types.js';
import type { CriterionStatus, EvidenceStatus } from '../evidence/judge.js';
import { EVIDENCE_DIR } from '../evidence/record.js';
import type { PlannedCheck } from '../verification/plan.js';

/** A criterion as a completion proof reports it. */
export interface ProofCriterion {
  readonly id: string;
  readonly text: string;
  readonly file: string;
  readonly line: number;
  readonly status: CriterionStatus;
  /** The checks that cover it for this work item; `checks` says what each one's evidence shows. */
  readonly evidence: readonly string[];
  /** Why it is NOT_APPLICABLE, as the testing plan says. */
  readonly reason?: string;
}

/** A check as a completion proof reports it. */
export interface ProofCheck {
  readonly id: string;
  readonly source: PlannedCheck['source'];
  readonly argv: readonly string[];
  readonly covers: readonly string[];
  /** `skipped` when the testing plan sets it aside for this work item. */
  readonly status: EvidenceStatus | 'skipped';
  readonly record: string;
  /** How the recorded run ended, when there is a believable record. */
  readonly exitCode?: number | null;
  /** The commit the recorded run saw, and whether files it depends on differed from it. */
  readonly commit?: string | null;
  readonly dirty?: boolean;
  readonly reasons: readonly string[];
}

/** Something only a person can settle. */
export interface OpenDecision {
  /** `clarification`: a `[NEEDS CLARIFICATION …]` marker, which blocks; `approval`: a human node waiting, which does not. */
  readonly kind: 'clarification' | 'approval';
  readonly text: string;
  readonly file: string;
  readonly line?: number;
  readonly node?: string;
  readonly blocking: boolean;
}

/** `completion.v1` *(contract)*: the only document that supports a claim that a work item is done. */
export interface CompletionProof {
  readonly schemaVersion: 1;
  readonly kind: 'completion.v1';
  readonly workItem: string;
  readonly verdict: 'COMPLETE' | 'INCOMPLETE';
  /** HEAD when the proof was made; null before the first commit. */
  readonly commit: string | null;
  readonly criteria: readonly ProofCriterion[];
  readonly checks: readonly ProofCheck[];
  /** Findings an agent can fix (the set `check --fail-on block` fails on). */
  readonly findings: readonly Diagnostic[];
  readonly staleEvidence: readonly { readonly check: string; readonly record: string; readonly reasons: readonly string[] }[];
  readonly openDecisions: readonly OpenDecision[];
  /** Why the verdict is INCOMPLETE, one line each; empty when COMPLETE. */
  readonly reasons: readonly string[];
}

const CLARIFICATION = /\[NEEDS CLARIFICATION\b/i;
const DECISION_SOURCES = ['requirements.md', 'bugfix.md', 'design.md'];

/**
 * Build the completion proof of a work item. Fail closed: COMPLETE only when there is at
 * least one criterion, every criterion is VERIFIED by current, passing evidence or
 * NOT_APPLICABLE with a reason, at least one is VERIFIED, no finding an agent can fix is open,
 * no clarification is pending, and every agent node before the last human one has been
 * reached. A ticked task, an agent's claim or a model's agreement
 * never enters; approvals still waiting on a person are listed and do not change the verdict.
 */
export function buildCompletionProof(graph: Graph, input: WorkItemInput, at: { commit: string | null }, settings: GateSettings = DEFAULT_GATE_SETTINGS): CompletionProof {
  const result = evaluateWorkItem(graph, input, settings);
  const view = verificationView(graph, input);
  const recordPath = (id: string) => `${input.dir}/${EVIDENCE_DIR}/${id}.json`;

  const criteria: ProofCriterion[] = view.criteria.map((c) => ({
    id: c.criterion.id,
    text: c.criterion.text,
    file: c.criterion.file,
    line: c.criterion.position.line,
    status: c.status,
    evidence: c.evidence,
    ...(c.notApplicable ? { reason: c.notApplicable.reason } : {}),
  }));
  const checks: ProofCheck[] = [
    ...view.checks.map((c) => ({
      id: c.check.id,
      source: c.check.source,
      argv: c.check.argv,
      covers: c.check.covers,
      status: c.status,
      record: recordPath(c.check.id),
      ...(c.record ? { exitCode: c.record.run.exitCode, commit: c.record.git.commit, dirty: c.record.git.dirty } : {}),
      reasons: c.reasons,
    })),
    ...view.plan.skipped.map((s): ProofCheck => {
      const declared = input.verification?.config.checks.find((c) => c.id === s.id);
      return { id: s.id, source: 'config', argv: declared?.argv ?? [], covers: [], status: 'skipped', record: recordPath(s.id), reasons: [s.reason] };
    }),
  ];
  const findings = blockingFindings(result);
  const staleEvidence = view.checks.filter((c) => c.status === 'stale').map((c) => ({ check: c.check.id, record: recordPath(c.check.id), reasons: c.reasons }));
  const openDecisions = [...clarifications(input, view.criteriaSource ? [view.criteriaSource.name] : []), ...waitingOnPeople(result)];

  const reasons: string[] = [];
  if (!view.criteriaSource) reasons.push('no requirements.md or bugfix.md can be read, so no acceptance criterion is known');
  else if (criteria.length === 0) reasons.push(`${view.criteriaSource.name} states no acceptance criterion`);
  else if (!criteria.some((c) => c.status === 'VERIFIED')) reasons.push('no criterion is VERIFIED: a proof that verifies nothing proves nothing');
  for (const c of view.criteria) {
    if (c.status === 'VERIFIED' || c.status === 'NOT_APPLICABLE') continue;
    reasons.push(`${c.criterion.id} is ${c.status}: ${c.reasons.join('; ')}`);
  }
  for (const node of unreached(graph, result)) reasons.push(`node "${node}" has not been reached: its gate was never evaluated`);
  if (findings.length > 0) reasons.push(`${findings.length} open finding${findings.length === 1 ? '' : 's'} an agent can fix`);
  for (const d of openDecisions.filter((o) => o.blocking)) reasons.push(`open decision at ${d.file}${d.line ? `:${d.line}` : ''}: ${d.text}`);

  return {
    schemaVersion: 1,
    kind: 'completion.v1',
    workItem: input.id,
    verdict: reasons.length === 0 ? 'COMPLETE' : 'INCOMPLETE',
    commit: at.commit,
    criteria,
    checks,
    findings,
    staleEvidence,
    openDecisions,
    reasons,
  };
}

// Agent and code nodes before the last human node whose gate was not evaluated: the work has not
// got that far. Nodes after the last approval (marking the item complete) follow the proof, not precede it.
function unreached(graph: Graph, result: ReturnType<typeof evaluateWorkItem>): string[] {
  const line = mainLine(graph);
  const lastHuman = line.map((node) => node.actor).lastIndexOf('human');
  const before = lastHuman === -1 ? line : line.slice(0, lastHuman);
  const outcomes = new Map(result.nodes.map((node) => [node.node, node.outcome]));
  return before.filter((node) => node.actor !== 'human' && outcomes.get(node.id) === undefined).map((node) => node.id);
}

// `[NEEDS CLARIFICATION: …]` markers left in the requirements or design: a product decision nobody has made.
function clarifications(input: WorkItemInput, first: readonly string[]): OpenDecision[] {
  const names = [...new Set([...first, ...DECISION_SOURCES])];
  return names.flatMap((name) => {
    const source = input.files.get(name);
    if (!source || !('text' in source)) return [];
    const path = `${input.dir}/${name}`;
    return parseArtifact(path, source.text)
      .statements.filter((statement) => CLARIFICATION.test(statement.text))
      .map((statement) => ({ kind: 'clarification' as const, text: statement.text.replace(/\s+/g, ' '), file: path, line: statement.position.line, blocking: true }));
  });
}

// Human nodes whose gate waits: listed for the reader; the proof is what they decide on.
function waitingOnPeople(result: ReturnType<typeof evaluateWorkItem>): OpenDecision[] {
  return result.nodes
    .filter((node) => node.outcome === 'wait')
    .flatMap((node) => node.findings.filter((d) => d.severity === 'error').map((d) => ({ kind: 'approval' as const, text: d.message, file: d.file, ...(d.line !== undefined ? { line: d.line } : {}), node: node.node, blocking: false })));
}
