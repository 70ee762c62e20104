import { boundariesIn, unmentioned } from '../artifact/boundary-names.js';
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
      const boundaries = boundariesIn(section.items);
      if (boundaries.length === 0) return [];
      return unmentioned(artifact.text, boundaries).map((boundary) => {
          const named = boundary.id === undefined ? `"${boundary.name}"` : boundary.name === undefined ? boundary.id : `${boundary.id} ("${boundary.name}")`;
          const either = [boundary.id, boundary.name === undefined ? undefined : `"${boundary.name}"`].filter(Boolean).join(' or ');
          return report(rule, {
            message: `Trust boundary ${named} named in ${upstream.name} § ${section.title} is not addressed in ${ctx.artifactName}.`,
            file: upstream.artifact.path,
            position: boundary.position,
            node: ctx.node.id,
            expected: `${ctx.artifactName} mentions ${either}`,
            fix: `Address ${either} in ${ctx.artifactName} (for example in its Security design section).`,
          });
        });
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

  // An older template's section: category lead-ins, a boundary label with nested items, ids.
  const TEMPLATED = [
    '# Requirements',
    '',
    '## Security considerations',
    '',
    '- **Actors & trust:** account admins (MFA) and the export worker.',
    '- **Trust boundaries:**',
    '  - **TB-1** Presigned download URL — leaves our bucket for the internet.',
    '  - **TB-2** Export queue — the worker trusts its messages.',
    '- **Abuse cases (EARS):** IF a non-admin requests an export THEN the system SHALL refuse it.',
    '- **All exports are logged.**',
    '',
  ].join('\n');

  return {
    notOk: [
      { title: 'the token store is named upstream and not downstream; reported where it is named', graph: GRAPH, files: { 'requirements.md': REQUIREMENTS, 'design.md': '# Design\n\nThe webhook endpoint checks signatures.\n' }, findings: ['requirements.md:6:1'] },
      { title: 'under a boundary label, each nested boundary whose id and name are both absent', graph: GRAPH, files: { 'requirements.md': TEMPLATED, 'design.md': '# Design\n\nTB-1: download links expire after 5 minutes.\n' }, findings: ['requirements.md:8:3'] },
    ],
    ok: [
      { title: 'each boundary mentioned, in any case', graph: GRAPH, files: { 'requirements.md': REQUIREMENTS, 'design.md': '# Design\n\nThe WEBHOOK ENDPOINT checks signatures; the token store is encrypted.\n' } },
      { title: 'emphasis, punctuation, line breaks and plurals aside', graph: GRAPH, files: { 'requirements.md': REQUIREMENTS, 'design.md': '# Design\n\n**Webhook**\nendpoints check signatures; `token_store` is encrypted.\n' } },
      { title: 'category labels, EARS criteria and sentences are not boundaries; an id or a name addresses one', graph: GRAPH, files: { 'requirements.md': TEMPLATED, 'design.md': '# Design\n\nTB1: download links expire. The export queue is signed.\n' } },
    ],
  };
}
