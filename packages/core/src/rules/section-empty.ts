import { findSection } from '../artifact/find-section.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'section-empty',
  summary: 'A required section holds nothing but whitespace, comments, placeholders or an empty table.',
  predicates: {
    sections: (titles, ctx) => {
      const { artifact } = ctx;
      if (!artifact) return [];
      return titles.flatMap((title) => {
        const section = findSection(artifact, title);
        if (!section?.empty) return [];
        return [
          report(rule, {
            message: `The "${section.title}" section of ${ctx.artifactName} is empty (only whitespace, comments, placeholders or guidance).`,
            file: artifact.path,
            position: section.position,
            node: ctx.node.id,
            expected: 'written content under the heading',
            fix: `Write the "${section.title}" section; template prompts and comments do not count.`,
          }),
        ];
      });
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: design.md, gate: [{sections: [Security design]}]');

  return {
    notOk: [
      { title: 'only a template comment under the heading', graph: GRAPH, files: { 'design.md': '# Design\n\n## Security design\n\n<!-- describe each trust boundary -->\n' }, findings: ['design.md:3:1'] },
      { title: 'a placeholder and a table with no rows', graph: GRAPH, files: { 'design.md': '# Design\n\n## Security design\n\n<boundary>: TBD\n\n| Boundary | Control |\n|---|---|\n' }, findings: ['design.md:3:1'] },
    ],
    ok: [{ title: 'text in a subsection counts', graph: GRAPH, files: { 'design.md': '# Design\n\n## Security design\n\n### Tokens\n\nTokens stay on the server.\n' } }],
  };
}
