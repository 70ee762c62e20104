import { check, record, verification } from '../evidence/examples.js';
import { checksWithStatus, criteriaFailedBy, REQUIREMENTS, verifyCommand } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'evidence-invalid',
  summary: 'An evidence record cannot be believed: unreadable, not a record, or edited after the-loop wrote it.',
  predicates: {
    checksPass: (_value, ctx) =>
      checksWithStatus(ctx, 'invalid').map(({ evidence: c, file }) =>
        report(rule, {
          message: `The evidence record of check "${c.check.id}" is rejected: ${c.reasons[0]?.replace(/^the record is rejected: /, '')}.`,
          file,
          node: ctx.node.id,
          expected: 'a record exactly as `the-loop verify` wrote it',
          fix: `Records are written only by the-loop: delete this one and run ${verifyCommand(ctx, c.check.id)}.`,
        }),
      ),
    criteriaVerified: (_value, ctx) =>
      criteriaFailedBy(ctx, 'invalid').map(({ verdict: c, checks }) =>
        report(rule, {
          message: `${c.criterion.id} is ${c.status}: the evidence record of ${checks.join(', ')} is rejected.`,
          file: c.criterion.file,
          position: c.criterion.position,
          node: ctx.node.id,
          expected: 'VERIFIED',
          actual: c.status,
          fix: `Delete the rejected record and run ${verifyCommand(ctx)}.`,
        }),
      ),
  },
});
/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const CHECKS = oneNodeGraph('gate: [{checksPass: true}]');
  const CRITERIA = oneNodeGraph('gate: [{criteriaVerified: true}]');
  const unit = check('unit', ['AC1', 'AC2']);

  return {
    notOk: [
      { title: 'a record edited after it was written', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: 'its content does not match its recordDigest' }), findings: ['evidence/unit.json'] },
      { title: 'each criterion the rejected record would cover', graph: CRITERIA, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: 'it is not JSON' }), findings: ['requirements.md:5:1', 'requirements.md:6:1'] },
    ],
    ok: [{ title: 'a record as the-loop wrote it', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit) }) }],
  };
}
