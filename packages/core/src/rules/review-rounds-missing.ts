import { DEFAULT_OUTCOME_WORDS, DEFAULT_REVIEW_CYCLES, readReviewCycles, roundRan } from '../execution-log/review-cycles.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'review-rounds-missing',
  summary: "The execution log's Review cycles table lacks the rounds a node needs.",
  predicates: {
    reviewRounds: (wanted, ctx) => {
      const log = ctx.lookup('execution-log.md');
      const file = log?.artifact.path ?? ctx.pathOf('execution-log.md');
      const settings = ctx.settings.reviewCycles;
      const cycles = log ? readReviewCycles(log.artifact, settings) : undefined;
      const ofType = (cycles?.rounds ?? []).filter((round) => round.type.includes(wanted.type.toLowerCase()));
      const counted = ofType.filter((round) => roundRan(round.outcome)).length;
      if (counted >= wanted.min) return [];
      const unread = ofType.filter((round) => round.outcome === undefined);
      const heading = settings.sections.map((name) => `"${name}"`).join(' or ');
      const why = cycles?.missingColumn
        ? ` The table under ${heading} has no ${cycles.missingColumn === 'type' ? 'Type' : 'Outcome (or Findings)'} column.`
        : unread.length > 0
          ? ` Not a known outcome: ${unread.map((round) => `"${round.written}" (line ${round.row.position.line})`).join(', ')} — see reviews.outcomes.`
          : '';
      return [
        report(rule, {
          message: `The execution log records ${counted} ${wanted.type} review round${counted === 1 ? '' : 's'} that ran; ${wanted.min} needed.${why}`,
          file,
          ...(log ? { position: cycles?.tables[0]?.position ?? { line: log.artifact.lineCount, column: 1 } } : {}),
          node: ctx.node.id,
          expected: `≥ ${wanted.min} "${wanted.type}" row(s) in the table under ${heading} with an outcome of new findings, zero or escalated`,
          actual: `${counted}`,
          fix: `Run the ${wanted.type} review round and record it in the table under ${heading} (an unavailable round does not count).`,
        }),
      ];
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: execution-log.md, gate: [{reviewRounds: {type: critic, min: 1}}]');
  const log = (rows: string) => `# Execution log\n\n## Review cycles\n\n| Round | Type | Outcome |\n|---|---|---|\n${rows}`;

  const rounds = '# Execution log\n\n## Review rounds\n\n| Round | Reviewer | Findings |\n|---|---|---|\n| 1 | critic (second model) | 2 |\n';

  return {
    notOk: [
      { title: 'a critic round that could not run does not count; reported at the table', graph: GRAPH, files: { 'execution-log.md': log('| 1 | self | zero |\n| 2 | critic | unavailable: not on PATH |\n') }, findings: ['execution-log.md:5:1'] },
      { title: 'an outcome word the configuration does not list', graph: GRAPH, files: { 'execution-log.md': log('| 1 | critic | looks fine to me |\n') }, findings: ['execution-log.md:5:1'] },
      { title: 'a table under a heading the configuration does not name: reported at the end of the log', graph: GRAPH, files: { 'execution-log.md': rounds }, findings: ['execution-log.md:8:1'] },
    ],
    ok: [
      { title: 'a critic round with new findings', graph: GRAPH, files: { 'execution-log.md': log('| 1 | critic | new findings |\n') } },
      { title: 'the heading the configuration names, a Reviewer column for the type and a Findings count', graph: GRAPH, files: { 'execution-log.md': rounds }, settings: { reviewCycles: { ...DEFAULT_REVIEW_CYCLES, sections: ['Review cycles', 'Review rounds'] } } },
      { title: 'an outcome word the configuration adds', graph: GRAPH, files: { 'execution-log.md': log('| 1 | critic | looks fine to me |\n') }, settings: { reviewCycles: { ...DEFAULT_REVIEW_CYCLES, outcomes: { ...DEFAULT_OUTCOME_WORDS, zero: ['looks fine'] } } } },
    ],
  };
}
