import { artifactFromFacts, parseArtifact } from '../artifact/parse-artifact.js';
import type { Artifact } from '../artifact/types.js';
import { compareDiagnostics, diagnostic, type Diagnostic, type Position } from '../diagnostic.js';
import type { GateOutcome, Graph, GraphNode } from '../graph/types.js';
import { EXECUTION_LOG, PRE_START_PHASES } from '../work-item/known-artifacts.js';
import type { WorkItemInput } from './inputs.js';
import { evaluatePredicate, type PredicateContext } from './predicates.js';

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

/** Evaluate a work item against a graph. Pure: the same input always gives the same result. */
export function evaluateWorkItem(graph: Graph, input: WorkItemInput): WorkItemResult {
  const files = new ArtifactSet(input, graph.nodes.map((n) => n.alternatives).filter((g) => g.length > 1));
  const line = mainLine(graph);
  const selected = new Set(input.selectedOptIns ?? []);
  const ctxBase = predicateBase(input, files);
  const verdicts = new Map<string, Verdict>();
  const verdictOf = (node: GraphNode): Verdict => {
    let verdict = verdicts.get(node.id);
    if (!verdict) {
      verdict = evaluateNode(node, files, ctxBase, selected);
      verdicts.set(node.id, verdict);
    }
    return verdict;
  };

  const claim = readClaim(graph, line, files);
  const creators = firstProducers(line);
  const extra = new Map<string, Diagnostic[]>();
  const attach = (nodeId: string, found: readonly Diagnostic[]): void => {
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
    attach(...phaseFinding(line, claim as Claim & { position: Position }, effectiveCurrent, verdictOf, files));
  }
  if (input.recordedNode !== undefined && input.recordedNode !== (line[currentIndex]?.id ?? null)) {
    const recorded = input.recordedNode ?? 'done';
    attach(unmetAt.id, [
      diagnostic({
        ruleId: 'phase-mismatch',
        message: `Graph state records "${recorded}" as the current node, but the artifacts put this work item at "${line[currentIndex]?.id ?? 'done'}".`,
        file: `${input.dir}/graph-state.json`,
        position: { line: 1, column: 1 },
        expected: line[currentIndex]?.id ?? 'done',
        actual: recorded,
        fix: 'Run `the-loop graph advance <id>` to move the recorded pointer along the declared edges.',
      }),
    ]);
  }
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
    else if (index <= claim.index || creators.has(node.id) && node.alternatives.some((n) => n !== EXECUTION_LOG && files.has(n)) || own.length > 0) status = 'reached';
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
  return {
    workItem: input.id,
    currentNode: line[currentIndex]?.id ?? null,
    ok,
    nodes,
    findings,
    artifacts: files.statuses(),
    logPhase: claim.raw ?? null,
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
export function evaluateGate(graph: Graph, input: WorkItemInput, nodeId: string): { outcome: GateOutcome; findings: readonly Diagnostic[] } {
  const node = graph.byId.get(nodeId);
  if (!node) throw new Error(`node "${nodeId}" is not declared in the graph`);
  const files = new ArtifactSet(input, graph.nodes.map((n) => n.alternatives).filter((g) => g.length > 1));
  const verdict = evaluateNode(node, files, predicateBase(input, files), new Set(input.selectedOptIns ?? []));
  return { outcome: verdict.outcome, findings: [...verdict.findings].sort(compareDiagnostics) };
}

type PredicateBase = Omit<PredicateContext, 'node' | 'artifact' | 'artifactName'>;

function predicateBase(input: WorkItemInput, files: ArtifactSet): PredicateBase {
  return {
    lookup: (name: string) => files.lookup(name),
    pathOf: (name: string) => files.pathOf(name),
    approvals: input.approvals ?? [],
    digests: input.digests ?? new Map<string, string>(),
    approvers: new Set(input.approvers ?? []),
  };
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
  base: PredicateBase,
  selected: ReadonlySet<string>,
): Verdict {
  if (node.optIn && !selected.has(node.id)) return { outcome: 'skip', findings: [] };
  const unmet = node.actor === 'human' ? 'wait' : 'block';
  const present = node.alternatives.filter((name) => files.has(name));
  let findings: Diagnostic[] = [];
  if (node.alternatives.length > 0 && present.length === 0) {
    if (node.optional) return { outcome: 'skip', findings: [] };
    const wanted = node.alternatives.join(' or ');
    return {
      outcome: 'block',
      findings: [
        diagnostic({
          ruleId: 'artifact-missing',
          message: `${wanted} is missing.`,
          file: files.pathOf(node.alternatives[0]!),
          node: node.id,
          expected: wanted,
          fix: `Write ${wanted} in the work item's folder.`,
        }),
      ],
    };
  }
  if (present.length > 1) {
    findings.push(
      diagnostic({
        ruleId: 'artifact-ambiguous',
        message: `Both ${present.join(' and ')} are present; node "${node.id}" expects exactly one of them.`,
        file: files.pathOf(present[1]!),
        node: node.id,
        fix: `Keep one of ${present.join(', ')} and delete the other.`,
      }),
    );
  }
  const name = present[0];
  let artifact: Artifact | undefined;
  if (name !== undefined) {
    const read = files.get(name);
    if ('problem' in read) return { outcome: 'block', findings: [...findings, { ...read.problem, node: node.id }] };
    artifact = read.artifact;
  }
  const ctx: PredicateContext = { ...base, node, artifact, artifactName: name };
  for (const predicate of node.gate) findings.push(...evaluatePredicate(predicate, ctx));
  // An unlocked artifact is not ready to be approved: one finding for that, not two.
  const unlocked = new Set(findings.filter((d) => d.ruleId === 'artifact-unlocked').map((d) => d.file));
  if (unlocked.size > 0) findings = findings.filter((d) => d.ruleId !== 'approval-missing' || !unlocked.has(d.file));
  // A human node's artifact must still be readable and whole; a missing file is the agent's to write.
  const agentFixable = findings.some((d) => d.ruleId === 'artifact-missing' || d.ruleId === 'artifact-ambiguous');
  const outcome: GateOutcome = findings.some((d) => d.severity === 'error') ? (agentFixable ? 'block' : unmet) : 'pass';
  return { outcome, findings };
}

interface Claim {
  readonly index: number;
  readonly raw?: string;
  readonly phase?: string;
  readonly position?: Position;
  readonly problem?: Diagnostic;
}

// The execution log's `phase:` is the agent's claim of where the work item is.
function readClaim(graph: Graph, line: readonly GraphNode[], files: ArtifactSet): Claim {
  if (!files.has(EXECUTION_LOG)) return { index: -1 };
  const read = files.get(EXECUTION_LOG);
  if ('problem' in read) return { index: -1 };
  const fm = read.artifact.frontMatter;
  const phase = fm?.data['phase'];
  if (phase === undefined) return { index: -1 };
  const position = fm?.positions['phase'] ?? { line: 1, column: 1 };
  const raw = String(phase);
  if (typeof phase === 'string' && PRE_START_PHASES.has(phase)) return { index: -1, raw };
  const index = line.findIndex((node) => node.phase === phase);
  if (index >= 0) return { index, raw, phase: raw, position };
  const phases = [...new Set(graph.nodes.map((n) => n.phase))];
  return {
    index: -1,
    raw,
    problem: diagnostic({
      ruleId: 'front-matter-invalid',
      message: `The execution log's phase "${String(phase)}" is not a phase of the lifecycle graph.`,
      file: read.artifact.path,
      position,
      expected: `one of: ${['not-started', ...phases].join(', ')}`,
      actual: String(phase),
      fix: 'Set `phase:` to the phase the work item is really in.',
    }),
  };
}

function phaseFinding(
  line: readonly GraphNode[],
  claim: Claim & { position: Position },
  current: number,
  verdictOf: (node: GraphNode) => Verdict,
  files: ArtifactSet,
): [string, Diagnostic[]] {
  const logPath = files.pathOf(EXECUTION_LOG);
  const derived = line[current]?.id ?? 'done';
  if (claim.index < current) {
    return [
      line[Math.min(current, line.length - 1)]!.id,
      [
        diagnostic({
          ruleId: 'phase-mismatch',
          severity: 'warning',
          message: `The execution log says phase "${claim.phase}", but the artifacts put this work item at "${derived}".`,
          file: logPath,
          position: claim.position,
          expected: `phase: ${line[Math.min(current, line.length - 1)]!.phase}`,
          actual: `phase: ${claim.phase}`,
          fix: 'Update the log\'s `phase:` to the node the work item is really at.',
        }),
      ],
    ];
  }
  const upstream = line
    .slice(current, claim.index)
    .flatMap((node) => verdictOf(node).findings)
    .filter((d) => d.ruleId === 'artifact-missing' || d.ruleId === 'artifact-unlocked' || d.ruleId === 'artifact-empty');
  const claimed = line[claim.index]!;
  if (upstream.length > 0) {
    const named = [...new Set(upstream.map((d) => `${d.file.split('/').pop()} ${d.ruleId === 'artifact-missing' ? 'missing' : d.ruleId === 'artifact-empty' ? 'empty' : 'unlocked'}`))];
    return [
      claimed.id,
      [
        diagnostic({
          ruleId: 'phase-ahead-of-artifacts',
          message: `The execution log claims phase "${claim.phase}" while upstream artifacts are not ready: ${named.join(', ')}.`,
          file: logPath,
          position: claim.position,
          expected: `phase: ${line[current]!.phase} (where the artifacts put the work item: "${derived}")`,
          actual: `phase: ${claim.phase}`,
          fix: 'Finish and lock the upstream artifacts first, or set the log\'s phase back to where the work really is.',
        }),
      ],
    ];
  }
  return [
    claimed.id,
    [
      diagnostic({
        ruleId: 'phase-mismatch',
        message: `The execution log claims phase "${claim.phase}", but the gate of "${derived}" is not met yet.`,
        file: logPath,
        position: claim.position,
        expected: `phase: ${line[current]?.phase ?? 'complete'}`,
        actual: `phase: ${claim.phase}`,
        fix: `Meet the gate of "${derived}" (see its findings) before moving the log's phase on.`,
      }),
    ],
  ];
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

type Read = { artifact: Artifact } | { problem: Diagnostic };

/** The work item's files, parsed once each, on first use. */
class ArtifactSet {
  private readonly cache = new Map<string, Read>();
  constructor(
    private readonly input: WorkItemInput,
    private readonly groups: readonly (readonly string[])[],
  ) {}

  has(name: string): boolean {
    return this.input.files.has(name);
  }

  pathOf(name: string): string {
    return `${this.input.dir}/${name}`;
  }

  get(name: string): Read {
    let read = this.cache.get(name);
    if (read) return read;
    const source = this.input.files.get(name);
    const path = this.pathOf(name);
    if (source === undefined || 'unreadable' in source) {
      read = {
        problem: diagnostic({
          ruleId: 'artifact-unreadable',
          message: `${name} cannot be read: ${source ? source.unreadable : 'not found'}.`,
          file: path,
          fix: `Replace ${name} with a UTF-8 Markdown file.`,
        }),
      };
    } else {
      const artifact = source.facts ? artifactFromFacts(path, source.text, source.facts) : parseArtifact(path, source.text);
      read = artifact.empty
        ? {
            problem: diagnostic({
              ruleId: 'artifact-empty',
              message: `${name} is empty.`,
              file: path,
              position: { line: 1, column: 1 },
              fix: `Write ${name}, or delete it until its node is reached.`,
            }),
          }
        : { artifact };
    }
    this.cache.set(name, read);
    return read;
  }

  lookup(name: string): { name: string; artifact: Artifact } | undefined {
    // An upstream named as `requirements.md` is satisfied by its declared alternative (`bugfix.md`).
    const candidates = [name, ...(this.groups.find((group) => group.includes(name)) ?? []).filter((n) => n !== name)];
    for (const candidate of candidates) {
      if (!this.has(candidate)) continue;
      const read = this.get(candidate);
      if ('artifact' in read) return { name: candidate, artifact: read.artifact };
    }
    return undefined;
  }

  /** Each present file's front-matter `status`. */
  statuses(): Record<string, { status: string | null }> {
    const out: Record<string, { status: string | null }> = {};
    for (const name of [...this.input.files.keys()].sort()) {
      const read = this.get(name);
      const status = 'artifact' in read ? read.artifact.frontMatter?.data['status'] : undefined;
      out[name] = { status: status === undefined || status === null ? null : String(status) };
    }
    return out;
  }

  /** File-level findings of every present file: unreadable, empty, invalid front-matter, template residue. */
  parseFindings(): [string, Diagnostic[]][] {
    return [...this.input.files.keys()]
      .sort()
      .map((name): [string, Diagnostic[]] => {
        const read = this.get(name);
        return [name, 'artifact' in read ? [...read.artifact.diagnostics] : [read.problem]];
      })
      .filter(([, found]) => found.length > 0);
  }
}
