import type { Artifact } from '../artifact/types.js';
import { diagnostic, ruleUrl, type Diagnostic, type DiagnosticInput, type RuleId, type Severity } from '../diagnostic.js';
import type { Approval, ApprovalSource, ArtifactSource, WorkItemInput } from '../gate/inputs.js';
import type { GatePredicate, GraphNode } from '../graph/types.js';
import type { GatePredicateKind } from '../graph/schema.js';
import type { GateSettings } from '../gate/settings.js';
import type { VerificationView } from '../verification/view.js';

/** What a gate predicate's check can look at: the produced artifact and, by name, any other. */
export interface PredicateContext {
  /** The work item's id, for fixes that name the command to run. */
  readonly workItem: string;
  readonly node: GraphNode;
  /** The produced artifact (the present alternative), when the node produces one. */
  readonly artifact: Artifact | undefined;
  readonly artifactName: string | undefined;
  /** Another artifact of the work item by name; alternatives (`requirements.md|bugfix.md`) resolve to the present one. */
  readonly lookup: (name: string) => { name: string; artifact: Artifact } | undefined;
  readonly pathOf: (name: string) => string;
  readonly approvals: readonly Approval[];
  readonly digests: ReadonlyMap<string, string>;
  readonly approvers: ReadonlySet<string>;
  /** How the configuration asks gates to read and report (`rules:`, the review table). */
  readonly settings: GateSettings;
  /** The work item's checks, evidence and criteria, judged once on first use. */
  readonly verification: () => VerificationView;
  readonly approvalSource: ApprovalSource;
  /** Why approvals could not be read, when they could not. */
  readonly approvalsUnavailable: string | undefined;
}

/** The value a gate list item holds under its key (`sections: [...]` → the titles). */
export type PredicateValue<K extends GatePredicateKind> = Extract<GatePredicate, Readonly<Record<K, unknown>>>[K];

/** One rule's check of one gate predicate: its findings, none when the predicate holds for this rule. */
export type PredicateCheck<K extends GatePredicateKind> = (value: PredicateValue<K>, ctx: PredicateContext) => Diagnostic[];

/** A rule's checks of gate predicates, by gate key. */
export type PredicateChecks = { readonly [K in GatePredicateKind]?: PredicateCheck<K> };

/** One rule: a stable id, its default severity, where it is documented, and what it checks. */
export interface Rule {
  readonly id: RuleId;
  readonly severity: Severity;
  /** One line, for rule lists (SARIF's `rules[]`); docs/rules.md has the full text. */
  readonly summary: string;
  /** The rule's section in docs/rules.md. */
  readonly url: string;
  /** The gate predicates it checks. Rules raised by the walk itself (a missing file, a phase claim) check none. */
  readonly predicates: PredicateChecks;
}

/** Declare a rule; its severity is `error` unless given, its url is its docs anchor. */
export function defineRule(rule: { id: RuleId; summary: string; severity?: Severity; predicates?: PredicateChecks }): Rule {
  return { id: rule.id, severity: rule.severity ?? 'error', summary: rule.summary, url: ruleUrl(rule.id), predicates: rule.predicates ?? {} };
}

/** A finding of `rule`, at its default severity unless the input says otherwise. */
export function report(rule: Rule, input: Omit<DiagnosticInput, 'ruleId'>): Diagnostic {
  return diagnostic({ severity: rule.severity, ...input, ruleId: rule.id });
}

/**
 * A small work item a rule is shown on, remark-lint style: a not-ok example lists where the
 * rule reports (`file:line:col`, or the file alone when there is no place in it); an ok example
 * reports nothing for the rule. Every rule has at least one of each, and a test runs them.
 */
export interface RuleExample {
  readonly title: string;
  /** The lifecycle graph as YAML; the default graph when absent. */
  readonly graph?: string;
  /** The work item's files by name: text, or the reason a file could not be read. */
  readonly files: Readonly<Record<string, string | ArtifactSource>>;
  /** The work item's graph-state.json as written, when it has one. */
  readonly graphState?: string;
  /** Approvals, approvers, file digests and verification the gate reads. */
  readonly input?: Pick<WorkItemInput, 'approvals' | 'approvers' | 'digests' | 'verification' | 'approvalSource' | 'approvalsUnavailable' | 'ignoredApprovals'>;
  /** `.the-loop/baseline.json` at the commit compared with (absent: none) and now, for baseline-grown. */
  readonly baselines?: { readonly before?: string; readonly after: string };
  /** Configuration the example runs under (`rules:`, `reviews.cyclesSection`, …); the defaults when absent. */
  readonly settings?: Partial<GateSettings>;
  /** Where the rule reports, relative to the work item's folder (a file outside it from the repository root); absent or empty for an ok example. */
  readonly findings?: readonly string[];
}

export interface RuleExamples {
  readonly ok: readonly RuleExample[];
  readonly notOk: readonly RuleExample[];
}

/** A graph of one agent node, for examples: `node` is the node's flow mapping without its id and phase. */
export function oneNodeGraph(node: string): string {
  return `start: work\nnodes:\n  - {id: work, phase: work, actor: agent, ${node}}\nedges: []\n`;
}
