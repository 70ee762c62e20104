import { approvalsOf, approvalTarget, approveCommand } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'approval-stale',
  summary: 'An approval (recorded, or a pull-request review) covers other content than the file now has.',
  predicates: {
    approved: (names, ctx) => {
      const { target } = approvalTarget(names, ctx);
      if (!target) return [];
      const { fresh, stale, digest } = approvalsOf(target.name, ctx);
      if (fresh || !stale) return [];
      const reviewed = stale.reviewed;
      if (reviewed) {
        const commit = reviewed.commit.slice(0, 12);
        return [
          report(rule, {
            message: `${target.name} was approved by ${stale.by} in a review of commit ${commit} at ${stale.at}, but ${reviewed.problem ?? 'its copy at that commit differs from the file now'}.`,
            file: target.artifact.path,
            position: { line: 1, column: 1 },
            node: ctx.node.id,
            expected: stale.digest ? `sha256:${stale.digest} (${target.name} at ${reviewed.commit})` : `${target.name} as it is at ${reviewed.commit}`,
            actual: digest ? `sha256:${digest}` : 'unknown digest',
            fix: `Push the change and ask an approver to review the pull request again, so the approval covers ${target.name} as it is now.`,
          }),
        ];
      }
      return [
        report(rule, {
          message: `${target.name} was approved by ${stale.by} at ${stale.at}, but has changed since.`,
          file: target.artifact.path,
          position: { line: 1, column: 1 },
          node: ctx.node.id,
          expected: `sha256:${stale.digest}`,
          actual: digest ? `sha256:${digest}` : 'unknown digest',
          fix: `Ask an approver to review the change and run ${approveCommand(ctx, target.name)} again.`,
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
  const reviewed = (digest: string, problem?: string) => {
    const { approvals, ...rest } = approved(digest);
    return { ...rest, approvals: approvals.map((a) => ({ ...a, reviewed: { commit: 'c0ffee', problem } })), approvalSource: 'github' as const };
  };

  return {
    notOk: [
      { title: 'design.md edited after it was approved', graph: GRAPH, files: { 'design.md': DESIGN }, input: approved('d-1'), findings: ['design.md:1:1'] },
      { title: 'a review approved an earlier commit whose design.md differs', graph: GRAPH, files: { 'design.md': DESIGN }, input: reviewed('d-1'), findings: ['design.md:1:1'] },
      { title: 'a review approved a commit this clone does not have', graph: GRAPH, files: { 'design.md': DESIGN }, input: reviewed('', 'commit c0ffee is not in this clone'), findings: ['design.md:1:1'] },
    ],
    ok: [
      { title: 'approved again at the digest the file has now', graph: GRAPH, files: { 'design.md': DESIGN }, input: approved('d-2') },
      { title: 'a review approved a commit holding the bytes the file has now', graph: GRAPH, files: { 'design.md': DESIGN }, input: reviewed('d-2') },
    ],
  };
}
