import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

const TOP = { line: 1, column: 1 };

export const rule: Rule = defineRule({
  id: 'artifact-unlocked',
  summary: "An artifact's front-matter status is not approved where the gate needs it locked.",
  predicates: {
    locked: (_value, ctx) => {
      const { artifact } = ctx;
      if (!artifact) return [];
      const status = artifact.frontMatter?.data['status'];
      if (status === 'approved') return [];
      return [
        report(rule, {
          message: `${ctx.artifactName} is not locked: front-matter status is ${status === undefined ? 'absent' : `"${String(status)}"`}.`,
          file: artifact.path,
          position: artifact.frontMatter?.positions['status'] ?? artifact.frontMatter?.position ?? TOP,
          node: ctx.node.id,
          expected: 'status: approved',
          actual: status === undefined ? 'no status' : `status: ${String(status)}`,
          fix: `Ask an approver to review ${ctx.artifactName}; it is locked when its status is approved.`,
        }),
      ];
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: design.md, gate: [{locked: true}]');

  return {
    notOk: [
      { title: 'status: draft, reported at the value', graph: GRAPH, files: { 'design.md': '---\nstatus: draft\n---\n# Design\n' }, findings: ['design.md:2:9'] },
      { title: 'no front-matter at all, reported at the top', graph: GRAPH, files: { 'design.md': '# Design\n' }, findings: ['design.md:1:1'] },
    ],
    ok: [{ title: 'status: approved', graph: GRAPH, files: { 'design.md': '---\nstatus: approved\n---\n# Design\n' } }],
  };
}
