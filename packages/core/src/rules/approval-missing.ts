import { approvalsOf, approvalTarget } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'approval-missing',
  summary: "A human node's artifact has no approval by an approver (recorded, or a pull-request review).",
  predicates: {
    approved: (names, ctx) => {
      const { target } = approvalTarget(names, ctx);
      if (!target || approvalsOf(target.name, ctx).stale) return [];
      const fromReviews = ctx.approvalSource === 'github';
      const unavailable = ctx.approvalsUnavailable ? ` The pull request's reviews could not be read: ${ctx.approvalsUnavailable}.` : '';
      return [
        report(rule, {
          message: `No approver has approved ${target.name}${fromReviews ? ' in a pull-request review' : ''}.${unavailable}`,
          file: target.artifact.path,
          position: { line: 1, column: 1 },
          node: ctx.node.id,
          expected: fromReviews
            ? 'the latest review of the pull request by a login with the approver role is APPROVED, at a commit holding these bytes'
            : 'an approval recorded by `the-loop graph approve` by a login with the approver role',
          fix: fromReviews
            ? `An approver listed in .the-loop/collaborators.yaml approves the pull request on GitHub${unavailable ? '; the check names the pull request with `--pr N`, or runs in its workflow' : ''}.`
            : `An approver listed in .the-loop/collaborators.yaml runs \`the-loop graph approve <id> ${target.name} --by <login>\`.`,
        }),
      ];
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('gate: [{approved: design.md}]').replace('actor: agent', 'actor: human');
  const DESIGN = '---\nstatus: approved\n---\n# Design\n';
  const approval = { artifact: 'design.md', digest: 'd-1', by: 'ann', at: '2026-01-01T00:00:00Z' };

  return {
    notOk: [
      { title: 'front-matter `status: approved` alone is no approval', graph: GRAPH, files: { 'design.md': DESIGN }, findings: ['design.md:1:1'] },
      { title: 'an approval by a login without the approver role', graph: GRAPH, files: { 'design.md': DESIGN }, input: { approvals: [{ ...approval, by: 'mallory' }], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) }, findings: ['design.md:1:1'] },
      {
        title: 'reviews that could not be read (no pull request, no network) under source github',
        graph: GRAPH,
        files: { 'design.md': DESIGN },
        input: { approvalSource: 'github', approvalsUnavailable: 'no pull request for this branch', approvals: [], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) },
        findings: ['design.md:1:1'],
      },
    ],
    ok: [
      { title: 'approved by an approver at the current digest', graph: GRAPH, files: { 'design.md': DESIGN }, input: { approvals: [approval], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) } },
      {
        title: "an approver's approving review of a commit holding the same bytes, under source github",
        graph: GRAPH,
        files: { 'design.md': DESIGN },
        input: { approvalSource: 'github', approvals: [{ ...approval, reviewed: { commit: 'c0ffee' } }], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) },
      },
    ],
  };
}
