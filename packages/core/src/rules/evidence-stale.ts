import { check, record, verification } from '../evidence/examples.js';
import { checksWithStatus, criteriaFailedBy, REQUIREMENTS, verifyCommand } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'evidence-stale',
  summary: 'A check passed, but against a state of the repository or environment that has changed since.',
  predicates: {
    checksPass: (_value, ctx) =>
      checksWithStatus(ctx, 'stale').map(({ evidence: c, file }) =>
        report(rule, {
          message: `Evidence for check "${c.check.id}" is stale: ${c.reasons.join('; ')}.`,
          file,
          node: ctx.node.id,
          expected: 'a run against the files, environment and declaration as they are now',
          fix: `Run ${verifyCommand(ctx, c.check.id)} again.`,
        }),
      ),
    criteriaVerified: (_value, ctx) =>
      criteriaFailedBy(ctx, 'stale').map(({ verdict: c, checks }) =>
        report(rule, {
          message: `${c.criterion.id} is ${c.status}: the evidence of ${checks.join(', ')} is stale.`,
          file: c.criterion.file,
          position: c.criterion.position,
          node: ctx.node.id,
          expected: 'VERIFIED',
          actual: c.status,
          fix: `Run ${verifyCommand(ctx)} again.`,
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
      { title: 'a passing run whose files changed since', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit, { content: '1' }) }, '2'), findings: ['evidence/unit.json'] },
      { title: 'a passing run of an argv declared differently since', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([check('unit', ['AC1', 'AC2'], { argv: ['node', '--test', 'test/'] })], { unit: record(unit) }), findings: ['evidence/unit.json'] },
      { title: 'each criterion its stale check covers', graph: CRITERIA, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit, { content: '1' }) }, '2'), findings: ['requirements.md:5:1', 'requirements.md:6:1'] },
    ],
    ok: [{ title: 'a passing run whose files are as they were', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit, { content: '1' }) }, '1') }],
  };
}
