import { findSection } from '../artifact/find-section.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'section-missing',
  summary: 'A required heading is absent.',
  predicates: {
    sections: (titles, ctx) => {
      const { artifact } = ctx;
      if (!artifact) return [];
      return titles
        .filter((title) => !findSection(artifact, title))
        .map((title) =>
          report(rule, {
            message: `${ctx.artifactName} has no "${title}" section.`,
            file: artifact.path,
            position: { line: artifact.lineCount, column: 1 },
            node: ctx.node.id,
            expected: `a "## ${title}" heading with content`,
            fix: `Add a "## ${title}" section to ${ctx.artifactName} and write it.`,
          }),
        );
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: design.md, gate: [{sections: [Security design]}]');

  return {
    notOk: [{ title: 'no "Security design" heading, reported at the end of the file', graph: GRAPH, files: { 'design.md': '# Design\n\n## Overview\n\nText.\n' }, findings: ['design.md:6:1'] }],
    ok: [
      { title: 'the heading in any case, with a trailing colon', graph: GRAPH, files: { 'design.md': '# Design\n\n### security DESIGN:\n\nTokens stay on the server.\n' } },
      { title: 'a setext heading', graph: GRAPH, files: { 'design.md': 'Security design\n---------------\n\nTokens stay on the server.\n' } },
    ],
  };
}
