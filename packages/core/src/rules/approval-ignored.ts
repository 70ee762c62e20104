import type { Diagnostic } from '../diagnostic.js';
import type { Approval } from '../gate/inputs.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'approval-ignored',
  severity: 'warning',
  summary: 'graph-state.json records approvals, but approvals come from pull-request reviews: they are not counted.',
});

/**
 * Under `approvals.source: github` only reviews GitHub authenticated count; approval entries
 * in graph-state.json (written by an older `graph approve`, or by hand) are reported, never used.
 */
export function approvalsIgnored(stateFile: string, ignored: readonly Approval[]): Diagnostic {
  const named = [...new Set(ignored.map((a) => `${a.artifact} by ${a.by}`))];
  return report(rule, {
    message: `graph-state.json records ${ignored.length === 1 ? 'an approval' : `${ignored.length} approvals`} (${named.join(', ')}), but approvals come from pull-request reviews (approvals.source: github): ${ignored.length === 1 ? 'it is' : 'they are'} not counted.`,
    file: stateFile,
    position: { line: 1, column: 1 },
    fix: 'An approver approves the pull request on GitHub; remove the entries from graph-state.json to silence this.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('gate: [{approved: design.md}]').replace('actor: agent', 'actor: human');
  const DESIGN = '# Design\n';
  const entry = { artifact: 'design.md', digest: 'd-1', by: 'ann', at: '2026-01-01T00:00:00Z' };
  const reviewed = { ...entry, reviewed: { commit: 'c0ffee' } };

  return {
    notOk: [
      {
        title: 'an approval entry with the right digest, under source github',
        graph: GRAPH,
        files: { 'design.md': DESIGN },
        input: { approvalSource: 'github', approvals: [], ignoredApprovals: [entry], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) },
        findings: ['graph-state.json:1:1'],
      },
    ],
    ok: [
      { title: 'the same entry under source local is the approval', graph: GRAPH, files: { 'design.md': DESIGN }, input: { approvals: [entry], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) } },
      { title: 'an approving review under source github', graph: GRAPH, files: { 'design.md': DESIGN }, input: { approvalSource: 'github', approvals: [reviewed], approvers: ['ann'], digests: new Map([['design.md', 'd-1']]) } },
    ],
  };
}
