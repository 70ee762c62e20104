import type { Diagnostic } from '../diagnostic.js';
import type { GatePredicate } from '../graph/types.js';
import type { GatePredicateKind } from '../graph/schema.js';
import { RULES } from './index.js';
import type { PredicateCheck, PredicateContext, PredicateValue, Rule } from './rule.js';

/** What the registry knows of one gate key besides its schema (graph/schema.ts). */
export interface GatePredicateEntry<K extends GatePredicateKind> {
  /** The rules a `gate:` item with this key checks: those declaring a check for the key. */
  readonly rules: readonly Rule[];
  /** Whether it reads the node's produced artifact, so a node that produces none cannot use it. */
  readonly readsProducedArtifact: boolean;
  /** Whether only a person can satisfy it; a human node's gate needs one (decision 110). */
  readonly personOnly?: boolean;
  /** What it asks for, in the words of an agent's assignment. */
  describe(value: PredicateValue<K>): string;
}

const rulesFor = (key: GatePredicateKind): readonly Rule[] => RULES.filter((rule) => rule.predicates[key] !== undefined);

/** The predicate registry: each gate key, the rules it checks, and how it reads. */
export const PREDICATES: { readonly [K in GatePredicateKind]: GatePredicateEntry<K> } = {
  locked: { rules: rulesFor('locked'), readsProducedArtifact: true, describe: () => 'front-matter `status: approved`' },
  frontMatter: {
    rules: rulesFor('frontMatter'),
    readsProducedArtifact: true,
    describe: (value) => `front-matter ${Object.entries(value).map(([key, wanted]) => `\`${key}: ${String(wanted)}\``).join(', ')}`,
  },
  sections: { rules: rulesFor('sections'), readsProducedArtifact: true, describe: (titles) => `non-empty sections ${titles.map((s) => `"${s}"`).join(', ')}` },
  tasksComplete: { rules: rulesFor('tasksComplete'), readsProducedArtifact: false, describe: () => 'every task ticked' },
  boundariesFrom: {
    rules: rulesFor('boundariesFrom'),
    readsProducedArtifact: true,
    describe: ({ artifact, section }) => `every trust boundary named under "${section}" in ${artifact} addressed`,
  },
  reviewRounds: {
    rules: rulesFor('reviewRounds'),
    readsProducedArtifact: false,
    describe: ({ type, min }) => `at least ${min} ${type} review round${min === 1 ? '' : 's'} that ran, in the execution log's Review cycles table`,
  },
  approved: { rules: rulesFor('approved'), readsProducedArtifact: false, personOnly: true, describe: (names) => `an approver's approval of ${names} (recorded with \`the-loop graph approve\`, or a pull-request review under \`approvals.source: github\`)` },
  checksPass: { rules: rulesFor('checksPass'), readsProducedArtifact: false, describe: () => 'current, passing evidence from `the-loop verify` for every check that applies' },
  criteriaVerified: { rules: rulesFor('criteriaVerified'), readsProducedArtifact: false, describe: () => 'every acceptance criterion proven by current, passing evidence (or set aside with a reason)' },
};

/** The key of a gate list item (`{sections: [...]}` → `sections`). */
export function predicateKey(predicate: GatePredicate): GatePredicateKind {
  return Object.keys(predicate)[0] as GatePredicateKind;
}

/** Evaluate one gate predicate: every rule it checks, together; an empty list means it holds. */
export function evaluatePredicate(predicate: GatePredicate, ctx: PredicateContext): Diagnostic[] {
  const key = predicateKey(predicate);
  const value = (predicate as Record<GatePredicateKind, unknown>)[key];
  return PREDICATES[key].rules.flatMap((rule) => (rule.predicates[key] as PredicateCheck<typeof key>)(value as never, ctx));
}

/** A gate predicate in the words of an agent's assignment. */
export function describePredicate(predicate: GatePredicate): string {
  const key = predicateKey(predicate);
  return (PREDICATES[key].describe as (value: unknown) => string)((predicate as Record<GatePredicateKind, unknown>)[key]);
}
