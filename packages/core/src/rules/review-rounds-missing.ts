import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

// Review outcomes that count as a round that ran; `unavailable` does not.
const COUNTING_OUTCOMES = ['new findings', 'new-findings', 'findings', 'zero', 'escalated', 'no new findings', 'converged'];

export const rule: Rule = defineRule({
  id: 'review-rounds-missing',
  summary: "The execution log's Review cycles table lacks the rounds a node needs.",
  predicates: {
    reviewRounds: (wanted, ctx) => {
      const log = ctx.lookup('execution-log.md');
      const file = log?.artifact.path ?? ctx.pathOf('execution-log.md');
      const table = log?.artifact.tables.find((t) => (t.section ?? '').toLowerCase().includes('review cycles'));
      let counted = 0;
      if (table) {
        const typeColumn = table.header.findIndex((h) => /type|kind|reviewer/i.test(h));
        const outcomeColumn = table.header.findIndex((h) => /outcome|result/i.test(h));
        counted = table.rows.filter((row) => {
          const type = (row.cells[typeColumn] ?? '').toLowerCase();
          const outcome = (row.cells[outcomeColumn] ?? '').toLowerCase().trim();
          return typeColumn >= 0 && outcomeColumn >= 0 && type.includes(wanted.type.toLowerCase()) && COUNTING_OUTCOMES.some((o) => outcome.startsWith(o));
        }).length;
      }
      if (counted >= wanted.min) return [];
      return [
        report(rule, {
          message: `The execution log records ${counted} ${wanted.type} review round${counted === 1 ? '' : 's'} that ran; ${wanted.min} needed.`,
          file,
          ...(log ? { position: table?.position ?? { line: log.artifact.lineCount, column: 1 } } : {}),
          node: ctx.node.id,
          expected: `≥ ${wanted.min} "${wanted.type}" row(s) in the Review cycles table with an outcome of new findings, zero or escalated`,
          actual: `${counted}`,
          fix: `Run the ${wanted.type} review round and record it in the Review cycles table (an unavailable round does not count).`,
        }),
      ];
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: execution-log.md, gate: [{reviewRounds: {type: critic, min: 1}}]');
  const log = (rows: string) => `# Execution log\n\n## Review cycles\n\n| Round | Type | Outcome |\n|---|---|---|\n${rows}`;

  return {
    notOk: [{ title: 'a critic round that could not run does not count; reported at the table', graph: GRAPH, files: { 'execution-log.md': log('| 1 | self | zero |\n| 2 | critic | unavailable: not on PATH |\n') }, findings: ['execution-log.md:5:1'] }],
    ok: [{ title: 'a critic round with new findings', graph: GRAPH, files: { 'execution-log.md': log('| 1 | critic | new findings |\n') } }],
  };
}
