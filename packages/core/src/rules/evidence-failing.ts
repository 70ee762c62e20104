import { check, record, verification } from '../evidence/examples.js';
import { checksWithStatus, criteriaFailedBy, REQUIREMENTS, verifyCommand } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'evidence-failing',
  summary: 'A check failed when the-loop ran it, so what it covers is unverified.',
  predicates: {
    checksPass: (_value, ctx) =>
      checksWithStatus(ctx, 'failing').map(({ evidence: c, file }) =>
        report(rule, {
          message: `Check "${c.check.id}" failed: ${c.reasons[0]}.`,
          file,
          node: ctx.node.id,
          expected: `exit ${c.check.expectExitCode}`,
          actual: c.reasons[0],
          fix: `Fix what the check reports (the record keeps its output), then run ${verifyCommand(ctx, c.check.id)} again.`,
        }),
      ),
    criteriaVerified: (_value, ctx) =>
      criteriaFailedBy(ctx, 'failing').map(({ verdict: c, checks }) =>
        report(rule, {
          message: `${c.criterion.id} is UNVERIFIED: ${checks.length === 1 ? 'the check' : 'checks'} covering it failed (${checks.join(', ')}).`,
          file: c.criterion.file,
          position: c.criterion.position,
          node: ctx.node.id,
          expected: 'VERIFIED',
          actual: c.status,
          fix: `Fix the failing check${checks.length === 1 ? '' : 's'}, then run ${verifyCommand(ctx)} again.`,
        }),
      ),
  },
});
/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const CHECKS = oneNodeGraph('gate: [{checksPass: true}]');
  const CRITERIA = oneNodeGraph('gate: [{criteriaVerified: true}]');
  const unit = check('unit', ['AC1', 'AC2']);
  const lint = check('lint', ['AC2']);

  return {
    notOk: [
      { title: 'a check whose recorded run exited 1', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit, { exitCode: 1 }) }), findings: ['evidence/unit.json'] },
      {
        title: 'a criterion one of whose checks fails is unverified, even when another passes',
        graph: CRITERIA,
        files: { 'requirements.md': REQUIREMENTS },
        input: verification([check('unit', ['AC1']), lint], { unit: record(check('unit', ['AC1'])), lint: record(lint, { exitCode: 2 }) }),
        findings: ['requirements.md:6:1'],
      },
    ],
    ok: [{ title: 'a check that exits with the code it expects', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([check('unit', ['AC1'], { expectExitCode: 3 })], { unit: record(check('unit', ['AC1'], { expectExitCode: 3 }), { exitCode: 3 }) }) }],
  };
}
