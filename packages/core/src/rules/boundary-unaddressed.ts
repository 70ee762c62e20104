import { findSection } from '../artifact/find-section.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'boundary-unaddressed',
  summary: 'A trust boundary named upstream does not appear downstream.',
  predicates: {
    boundariesFrom: (from, ctx) => {
      const { artifact } = ctx;
      const upstream = ctx.lookup(from.artifact);
      if (!artifact || !upstream) return [];
      const section = findSection(upstream.artifact, from.section);
      if (!section) return [];
      const haystack = artifact.text.toLowerCase();
      return section.items
        .filter((item) => !haystack.includes(item.term.toLowerCase()))
        .map((item) =>
          report(rule, {
            message: `Trust boundary "${item.term}" named in ${upstream.name} § ${section.title} is not addressed in ${ctx.artifactName}.`,
            file: upstream.artifact.path,
            position: item.position,
            node: ctx.node.id,
            expected: `${ctx.artifactName} mentions "${item.term}"`,
            fix: `Address "${item.term}" in ${ctx.artifactName} (for example in its Security design section).`,
          }),
        );
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = `start: design
nodes:
  - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md}
  - {id: design, phase: design, actor: agent, produces: design.md, gate: [{boundariesFrom: {artifact: requirements.md, section: Security considerations}}]}
edges: []
`;
  const REQUIREMENTS = '# Requirements\n\n## Security considerations\n\n- **Webhook endpoint**: signed\n- `token store`: encrypted\n';

  return {
    notOk: [{ title: 'the token store is named upstream and not downstream; reported where it is named', graph: GRAPH, files: { 'requirements.md': REQUIREMENTS, 'design.md': '# Design\n\nThe webhook endpoint checks signatures.\n' }, findings: ['requirements.md:6:1'] }],
    ok: [{ title: 'each boundary mentioned, in any case', graph: GRAPH, files: { 'requirements.md': REQUIREMENTS, 'design.md': '# Design\n\nThe WEBHOOK ENDPOINT checks signatures; the token store is encrypted.\n' } }],
  };
}
