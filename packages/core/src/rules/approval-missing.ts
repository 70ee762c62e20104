import type { Artifact } from '../artifact/types.js';
import { approvalsOf, approvalTarget, approveCommand } from './predicate-sources.js';
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
      // The earlier the-loop kept approvals in front-matter (`approvedBy: [ann]`): name them, since
      // an agent can write front-matter and only an approval the gate reads counts.
      const listed = approvedByOf(target.artifact);
      const claimed = listed.length > 0 ? ` Front-matter \`approvedBy: ${listed.join(', ')}\` is not an approval.` : '';
      return [
        report(rule, {
          message: `No approver has approved ${target.name}${fromReviews ? ' in a pull-request review' : ''}.${unavailable}${claimed}`,
          file: target.artifact.path,
          position: (listed.length > 0 ? target.artifact.frontMatter?.positions['approvedBy'] : undefined) ?? { line: 1, column: 1 },
          node: ctx.node.id,
          expected: fromReviews
            ? 'the latest review of the pull request by a login with the approver role is APPROVED, at a commit holding these bytes'
            : 'an approval recorded by `the-loop graph approve` by a login with the approver role',
          fix: fromReviews
            ? `An approver listed in .the-loop/collaborators.yaml approves the pull request on GitHub${unavailable ? '; the check names the pull request with `--pr N`, or runs in its workflow' : ''}.`
            : `${approveCommand(ctx, target.name, listed[0])}, run by an approver listed in .the-loop/collaborators.yaml.`,
        }),
      ];
    },
  },
});

// Logins a front-matter `approvedBy` lists (a list, or one login), as strings.
function approvedByOf(artifact: Artifact): string[] {
  const value = artifact.frontMatter?.data['approvedBy'];
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.filter((entry): entry is string | number => typeof entry === 'string' || typeof entry === 'number').map(String).slice(0, 10);
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('gate: [{approved: design.md}]').replace('actor: agent', 'actor: human');
  const DESIGN = '---\nstatus: approved\n---\n# Design\n';
  const approval = { artifact: 'design.md', digest: 'd-1', by: 'ann', at: '2026-01-01T00:00:00Z' };

  return {
    notOk: [
      { title: 'front-matter `status: approved` alone is no approval', graph: GRAPH, files: { 'design.md': DESIGN }, findings: ['design.md:1:1'] },
      { title: "the earlier the-loop's `approvedBy` in front-matter is no approval either; reported at it", graph: GRAPH, files: { 'design.md': '---\nstatus: approved\napprovedBy: [ann]\n---\n# Design\n' }, findings: ['design.md:3:1'] },
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
