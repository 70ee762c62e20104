import { approvalsOf, approvalTarget } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'approval-stale',
  summary: 'An approval was recorded for a different digest than the file now has.',
  predicates: {
    approved: (names, ctx) => {
      const { target } = approvalTarget(names, ctx);
      if (!target) return [];
      const { fresh, stale, digest } = approvalsOf(target.name, ctx);
      if (fresh || !stale) return [];
      return [
        report(rule, {
          message: `${target.name} was approved by ${stale.by} at ${stale.at}, but has changed since.`,
          file: target.artifact.path,
          position: { line: 1, column: 1 },
          node: ctx.node.id,
          expected: `sha256:${stale.digest}`,
          actual: digest ? `sha256:${digest}` : 'unknown digest',
          fix: `Ask an approver to review the change and run \`the-loop graph approve <id> ${target.name} --by <login>\` again.`,
        }),
      ];
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('gate: [{approved: design.md}]').replace('actor: agent', 'actor: human');
  const DESIGN = '---\nstatus: approved\n---\n# Design\n';
  const approved = (digest: string) => ({ approvals: [{ artifact: 'design.md', digest, by: 'ann', at: '2026-01-01T00:00:00Z' }], approvers: ['ann'], digests: new Map([['design.md', 'd-2']]) });

  return {
    notOk: [{ title: 'design.md edited after it was approved', graph: GRAPH, files: { 'design.md': DESIGN }, input: approved('d-1'), findings: ['design.md:1:1'] }],
    ok: [{ title: 'approved again at the digest the file has now', graph: GRAPH, files: { 'design.md': DESIGN }, input: approved('d-2') }],
  };
}
