import type { Diagnostic } from '../diagnostic.js';
import type { GraphNode } from '../graph/types.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'artifact-ambiguous', summary: 'More than one alternative of an artifact is present.' });

/** A node whose artifact has alternatives (`requirements.md|bugfix.md`) and more than one of them is present. */
export function ambiguousArtifact(node: GraphNode, present: readonly string[], pathOf: (name: string) => string): Diagnostic[] {
  if (present.length < 2) return [];
  return [
    report(rule, {
      message: `Both ${present.join(' and ')} are present; node "${node.id}" expects exactly one of them.`,
      file: pathOf(present[1]!),
      node: node.id,
      fix: `Keep one of ${present.join(', ')} and delete the other.`,
    }),
  ];
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [{ title: 'both requirements.md and bugfix.md exist', files: { 'requirements.md': '# R\n\nText.\n', 'bugfix.md': '# B\n\nText.\n' }, findings: ['bugfix.md'] }],
    ok: [{ title: 'only bugfix.md exists', files: { 'bugfix.md': '# B\n\nText.\n' } }],
  };
}
