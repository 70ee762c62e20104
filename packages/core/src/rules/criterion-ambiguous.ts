import { check, record, verification } from '../evidence/examples.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'criterion-ambiguous',
  summary: 'Two acceptance criteria share an id, so a check cannot say which one it proves.',
  predicates: {
    criteriaVerified: (_value, ctx) =>
      ctx.verification().repeated.map(({ criterion, first }) =>
        report(rule, {
          message: `Criterion id ${criterion.id} is used again; it first names the criterion on line ${first.position.line}, so covers: [${criterion.id}] cannot say which one a check proves.`,
          file: criterion.file,
          position: criterion.position,
          node: ctx.node.id,
          expected: 'a criterion id used once',
          fix: 'Give each criterion its own id (or leave ids out: unnamed criteria are AC1, AC2, … in order).',
        }),
      ),
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const CRITERIA = oneNodeGraph('gate: [{criteriaVerified: true}]');
  const unit = check('unit', ['AC1', 'AC2']);
  const proven = verification([unit], { unit: record(unit) });

  return {
    notOk: [
      { title: 'an explicit id repeated', graph: CRITERIA, files: { 'requirements.md': '# Requirements\n\n- AC1: Greets by name.\n- AC2: Greets the world.\n- AC1: Says goodbye.\n' }, input: proven, findings: ['requirements.md:5:1'] },
      { title: 'an explicit id that takes the place another criterion is counted at', graph: CRITERIA, files: { 'requirements.md': '# Requirements\n\nWHEN asked THEN the system SHALL greet.\n\n**AC1** The greeting is polite.\n' }, input: proven, findings: ['requirements.md:5:1'] },
    ],
    ok: [{ title: 'explicit and counted ids that do not meet', graph: CRITERIA, files: { 'requirements.md': '# Requirements\n\nAC1: Greets by name.\n\nWHEN no name is given THEN the system SHALL greet the world.\n' }, input: proven }],
  };
}
