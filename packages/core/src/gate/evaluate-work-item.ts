import type { Artifact } from '../artifact/types.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostic.js';
import { GRAPH_STATE_FILE } from '../graph-state/graph-state.js';
import type { GateOutcome, Graph, GraphNode } from '../graph/types.js';
import { approvalsIgnored } from '../rules/approval-ignored.js';
import { ambiguousArtifact } from '../rules/artifact-ambiguous.js';
import { producedArtifactMissing } from '../rules/artifact-missing.js';
import { graphStateUnusable } from '../rules/graph-state-invalid.js';
import { claimDisagrees, recordedNodeDisagrees } from '../rules/phase-mismatch.js';
import { evaluatePredicate, predicateKey } from '../rules/predicates.js';
import type { PredicateContext } from '../rules/rule.js';
import { EXECUTION_LOG, TASKS_FILE } from '../work-item/known-artifacts.js';
import { ArtifactSet } from './artifact-set.js';
import { readClaim, type PhaseClaim } from './claim.js';
import type { WorkItemInput } from './inputs.js';
import { DEFAULT_GATE_SETTINGS, type GateSettings } from './settings.js';
import { applyRuleLevels } from '../config/rule-levels.js';
import { viewVerification, type VerificationView } from '../verification/view.js';

/**
 * Where a node stands in the walk: `passed`/`skipped` before the current node, `current`
 * for the first unmet one, `reached` for later nodes the work has already touched (their
 * artifact exists, or the execution log claims them), `pending` for the rest.
 */
export type NodeStatus = 'passed' | 'skipped' | 'current' | 'reached' | 'pending';

export interface NodeResult {
  readonly node: string;
  readonly status: NodeStatus;
  /** The gate's verdict; absent for a pending node, which was not evaluated. */
  readonly outcome?: GateOutcome;
  readonly findings: readonly Diagnostic[];
}

export interface WorkItemResult {
  readonly workItem: string;
  /** The first unmet node walking edges from the start; null when every node passes. */
  readonly currentNode: string | null;
  readonly ok: boolean;
  readonly nodes: readonly NodeResult[];
  /** Every finding of every node, sorted by file and position. */
  readonly findings: readonly Diagnostic[];
  /** Each present artifact's front-matter `status` (null when it has none or cannot be read). */
  readonly artifacts: Readonly<Record<string, { readonly status: string | null }>>;
  /** The execution log's `phase:` as written, or null. */
  readonly logPhase: string | null;
}

interface Verdict {
  readonly outcome: GateOutcome;
  readonly findings: Diagnostic[];
}

/**
 * Evaluate a work item against a graph, under the configuration's settings (rule levels, the
 * review table). Pure: the same input always gives the same result.
 */
export function evaluateWorkItem(graph: Graph, input: WorkItemInput, settings: GateSettings = DEFAULT_GATE_SETTINGS): WorkItemResult {
  const { line, creators, alternatives } = shapeOf(graph);
  const files = new ArtifactSet(input, alternatives);
  const selected = new Set(input.selectedOptIns ?? []);
  const contextOf = predicateContexts(input, files, settings);
  const verdicts = new Map<string, Verdict>();
  const verdictOf = (node: GraphNode): Verdict => {
    let verdict = verdicts.get(node.id);
    if (!verdict) {
      verdict = evaluateNode(node, files, settings, contextOf, selected);
      verdicts.set(node.id, verdict);
    }
    return verdict;
  };

  const claim = readClaim(graph, line, files);
  const extra = new Map<string, Diagnostic[]>();
  const attach = (nodeId: string, raised: readonly Diagnostic[]): void => {
    const found = applyRuleLevels(raised, settings.rules);
    if (found.length > 0) extra.set(nodeId, [...(extra.get(nodeId) ?? []), ...found.map((d) => ({ ...d, node: nodeId }))]);
  };

  // Parse-level problems belong to the node that writes the artifact (for the execution log,
  // the first that writes it from the claimed phase on), and an error among them leaves that
  // node unmet: a node is never `passed` while it reports a `block`.
  const ownerless: Diagnostic[] = [];
  for (const [name, found] of files.parseFindings()) {
    const from = name === EXECUTION_LOG ? Math.max(claim.index, 0) : 0;
    const owner = line.find((n, i) => i >= from && n.alternatives.includes(name) && n.actor !== 'human' && !(n.optIn && !selected.has(n.id)));
    if (owner) attach(owner.id, found);
    else ownerless.push(...found);
  }
  const hasError = (nodeId: string): boolean => (extra.get(nodeId) ?? []).some((d) => d.severity === 'error');
  let currentIndex = line.findIndex((node) => {
    const { outcome } = verdictOf(node);
    return outcome === 'block' || outcome === 'wait' || hasError(node.id);
  });
  // Problems no node owns go to the current node, or to the last one once every node passes.
  const unmetAt = line[currentIndex === -1 ? line.length - 1 : currentIndex]!;
  attach(unmetAt.id, ownerless);
  if (claim.problem) attach(unmetAt.id, [claim.problem]);
  const effectiveCurrent = currentIndex === -1 ? line.length : currentIndex;
  // Several nodes share a phase (six review nodes are all `needs-review`): a claim of the
  // derived node's phase, or of the last phase once every node passes, agrees with it.
  const derivedPhase = (line[currentIndex] ?? line[line.length - 1])?.phase;
  if (claim.index >= 0 && claim.index !== effectiveCurrent && claim.position && claim.phase !== derivedPhase) {
    const { node, finding } = claimDisagrees(line, claim as PhaseClaim, effectiveCurrent, (n) => verdictOf(n).findings, files.pathOf(EXECUTION_LOG));
    attach(node, [finding]);
  }
  const derived = line[currentIndex]?.id ?? null;
  if (input.recordedNode !== undefined && input.recordedNode !== derived) {
    // Behind: the artifacts moved on through passing gates, and the next advance catches up.
    // Ahead of them, or off the main line, the state claims progress the artifacts do not support.
    const behind = pointerAgainstLine(line, input.recordedNode, derived) === 'behind';
    attach(unmetAt.id, [recordedNodeDisagrees(input.id, files.pathOf(GRAPH_STATE_FILE), input.recordedNode, derived, behind)]);
  }
  if (input.ignoredApprovals && input.ignoredApprovals.length > 0) attach(unmetAt.id, [approvalsIgnored(files.pathOf(GRAPH_STATE_FILE), input.ignoredApprovals)]);
  // An error found after the walk still leaves the node that carries it unmet, never `passed`.
  if (currentIndex === -1 && hasError(unmetAt.id)) currentIndex = line.length - 1;

  // Several nodes produce the same file (tasks-breakdown and implementation both name tasks.md):
  // a missing file is one problem, reported once, by the first reached node that needs it.
  const reportedMissing = new Set<string>();
  const nodes: NodeResult[] = line.map((node, index) => {
    const own = extra.get(node.id) ?? [];
    let status: NodeStatus;
    if (currentIndex === -1 || index < currentIndex) status = verdictOf(node).outcome === 'skip' ? 'skipped' : 'passed';
    else if (index === currentIndex) status = 'current';
    else if (index <= claim.index || creators.has(node.id) && node.alternatives.some((n) => n !== EXECUTION_LOG && files.has(n)) || own.length > 0 || readsPresentTasks(node, files)) status = 'reached';
    else status = 'pending';
    if (status === 'pending') return { node: node.id, status, findings: [] };
    const verdict = verdictOf(node);
    const fresh = verdict.findings.filter((d) => d.ruleId !== 'artifact-missing' || !reportedMissing.has(d.file));
    for (const d of verdict.findings) if (d.ruleId === 'artifact-missing') reportedMissing.add(d.file);
    const findings = dedupe([...fresh, ...own]).sort(compareDiagnostics);
    const blocking = own.some((d) => d.severity === 'error');
    const outcome: GateOutcome = blocking && (verdict.outcome === 'pass' || verdict.outcome === 'skip' || verdict.outcome === 'wait') ? 'block' : verdict.outcome;
    return { node: node.id, status, outcome, findings };
  });
  const findings = nodes.flatMap((n) => n.findings).sort(compareDiagnostics);
  const ok = currentIndex === -1 && !findings.some((d) => d.severity === 'error');
  const result: WorkItemResult = {
    workItem: input.id,
    currentNode: line[currentIndex]?.id ?? null,
    ok,
    nodes,
    findings,
    artifacts: files.statuses(),
    logPhase: claim.raw ?? null,
  };
  const stateIssues = input.graphStateIssues ?? [];
  return stateIssues.length > 0 ? failClosed(result, graphStateUnusable(files.pathOf(GRAPH_STATE_FILE), stateIssues, input.graphStateMigration)) : result;
}

// A problem outside the artifacts (unusable graph state) blocks the current node, or the last
// one once every node passes: the gate never passes over it.
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

function dedupe(found: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return found.filter((d) => {
    const key = `${d.ruleId}\u0000${d.file}\u0000${d.line}\u0000${d.column}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Evaluate one node's gate on its own, wherever it sits in the graph (the runtime asks about
 * the recorded current node, which may be off the main line, such as a fix node in a cycle).
 */
export function evaluateGate(graph: Graph, input: WorkItemInput, nodeId: string, settings: GateSettings = DEFAULT_GATE_SETTINGS): { outcome: GateOutcome; findings: readonly Diagnostic[] } {
  const node = graph.byId.get(nodeId);
  if (!node) throw new Error(`node "${nodeId}" is not declared in the graph`);
  const files = new ArtifactSet(input, shapeOf(graph).alternatives);
  const verdict = evaluateNode(node, files, settings, predicateContexts(input, files, settings), new Set(input.selectedOptIns ?? []));
  return { outcome: verdict.outcome, findings: [...verdict.findings].sort(compareDiagnostics) };
}

/** The context a node's predicates are evaluated in, for a node of the work item and its produced artifact. */
type PredicateContexts = (node: GraphNode, artifact: Artifact | undefined, artifactName: string | undefined) => PredicateContext;

function predicateContexts(input: WorkItemInput, files: ArtifactSet, settings: GateSettings): PredicateContexts {
  let view: VerificationView | undefined;
  const lookup = (name: string) => files.lookup(name);
  const pathOf = (name: string) => files.pathOf(name);
  const approvals = input.approvals ?? [];
  const digests = input.digests ?? new Map<string, string>();
  const approvers = new Set(input.approvers ?? []);
  const approvalSource = input.approvalSource ?? 'local';
  const { approvalsUnavailable } = input;
  const verification = () => (view ??= viewVerification(input.verification, (name) => files.lookup(name)));
  // Every field written out rather than the shared ones spread: run unoptimised, as a short run
  // is, a spread of them into each node's context cost more than the rest of the node's evaluation.
  return (node, artifact, artifactName) => ({ workItem: input.id, node, artifact, artifactName, lookup, pathOf, approvals, digests, approvers, settings, verification, approvalSource, approvalsUnavailable });
}

/**
 * Where a recorded pointer stands against the node the artifacts put the work item at (`null`:
 * done): the same node, `behind` it on the main line (every gate between passes), or `ahead` —
 * further on, done while the artifacts are not, or on a node the walk from start does not reach.
 */
export function recordedPointer(graph: Graph, recorded: string | null, derived: string | null): 'agrees' | 'behind' | 'ahead' {
  return pointerAgainstLine(shapeOf(graph).line, recorded, derived);
}

function pointerAgainstLine(line: readonly GraphNode[], recorded: string | null, derived: string | null): 'agrees' | 'behind' | 'ahead' {
  if (recorded === derived) return 'agrees';
  const indexOf = (id: string | null): number => (id === null ? line.length : line.findIndex((n) => n.id === id));
  const at = indexOf(recorded);
  return at >= 0 && at < indexOf(derived) ? 'behind' : 'ahead';
}

/** What evaluating any work item needs of a graph: its main line, the nodes that create each artifact, the groups of alternative files. */
interface GraphShape {
  readonly line: readonly GraphNode[];
  readonly creators: ReadonlySet<string>;
  readonly alternatives: readonly (readonly string[])[];
}

// Worked out once a graph, not once a work item: a report evaluates thousands against one graph.
const shapes = new WeakMap<Graph, GraphShape>();
function shapeOf(graph: Graph): GraphShape {
  let shape = shapes.get(graph);
  if (!shape) {
    const line = mainLine(graph);
    shape = { line, creators: firstProducers(line), alternatives: graph.nodes.map((n) => n.alternatives).filter((g) => g.length > 1) };
    shapes.set(graph, shape);
  }
  return shape;
}

/** The nodes reached from `start` along `pass` (or `skip`) edges, in order; cycles stop the walk. */
export function mainLine(graph: Graph): GraphNode[] {
  const line: GraphNode[] = [];
  const seen = new Set<string>();
  let id: string | undefined = graph.start;
  while (id !== undefined && !seen.has(id)) {
    const node = graph.byId.get(id);
    if (!node) break;
    seen.add(id);
    line.push(node);
    const from: string = id;
    const skip = node.optional ? graph.edges.find((e) => e.from === from && e.on === 'skip') : undefined;
    id = (skip ?? graph.edges.find((e) => e.from === from && e.on === 'pass'))?.to;
  }
  return line;
}

function evaluateNode(
  node: GraphNode,
  files: ArtifactSet,
  settings: GateSettings,
  contextOf: PredicateContexts,
  selected: ReadonlySet<string>,
): Verdict {
  if (node.optIn && !selected.has(node.id)) return { outcome: 'skip', findings: [] };
  const unmet = node.actor === 'human' ? 'wait' : 'block';
  const present = node.alternatives.filter((name) => files.has(name));
  let findings: Diagnostic[] = [];
  if (node.alternatives.length > 0 && present.length === 0) {
    if (node.optional) return { outcome: 'skip', findings: [] };
    // With artifact-missing off there is nothing left to judge: the node is skipped.
    const missing = applyRuleLevels([producedArtifactMissing(node, (name) => files.pathOf(name))], settings.rules);
    return { outcome: missing.some((d) => d.severity === 'error') ? 'block' : 'skip', findings: missing };
  }
  findings.push(...ambiguousArtifact(node, present, (name) => files.pathOf(name)));
  const name = present[0];
  let artifact: Artifact | undefined;
  if (name !== undefined) {
    const read = files.get(name);
    if ('problem' in read) return { outcome: 'block', findings: [...findings, { ...read.problem, node: node.id }] };
    artifact = read.artifact;
  }
  const ctx = contextOf(node, artifact, name);
  for (const predicate of node.gate) findings.push(...evaluatePredicate(predicate, ctx));
  findings = applyRuleLevels(findings, settings.rules);
  // An unlocked artifact is not ready to be approved: one finding for that, not two.
  const unlocked = new Set(findings.filter((d) => d.ruleId === 'artifact-unlocked').map((d) => d.file));
  if (unlocked.size > 0) findings = findings.filter((d) => d.ruleId !== 'approval-missing' || !unlocked.has(d.file));
  // A human node's artifact must still be readable and whole; a missing file is the agent's to write.
  const agentFixable = findings.some((d) => d.ruleId === 'artifact-missing' || d.ruleId === 'artifact-ambiguous');
  const outcome: GateOutcome = findings.some((d) => d.severity === 'error') ? (agentFixable ? 'block' : unmet) : 'pass';
  return { outcome, findings };
}

// Tasks written down are work in hand: a node that checks them is reached once its task list
// exists, whatever earlier files the work item lacks (tasksComplete reads the produced artifact, else tasks.md).
function readsPresentTasks(node: GraphNode, files: ArtifactSet): boolean {
  if (!node.gate.some((predicate) => predicateKey(predicate) === 'tasksComplete')) return false;
  return node.alternatives.length > 0 ? node.alternatives.some((name) => files.has(name)) : files.has(TASKS_FILE);
}

// The first node on the line that produces each artifact is the one that creates it.
function firstProducers(line: readonly GraphNode[]): Set<string> {
  const seen = new Set<string>();
  const creators = new Set<string>();
  for (const node of line) {
    const fresh = node.alternatives.filter((name) => !seen.has(name));
    if (fresh.length > 0 && node.actor !== 'human') creators.add(node.id);
    node.alternatives.forEach((name) => seen.add(name));
  }
  return creators;
}

/** A work item's checks, evidence and criteria as the evidence gates judge them. */
export function verificationView(graph: Graph, input: WorkItemInput): VerificationView {
  const files = new ArtifactSet(input, shapeOf(graph).alternatives);
  return viewVerification(input.verification, (name) => files.lookup(name));
}
