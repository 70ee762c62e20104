import { check, record, verification } from '../evidence/examples.js';
import { checksWithStatus, REQUIREMENTS, verifyCommand } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'evidence-missing',
  summary: 'Nothing the-loop ran proves a check or an acceptance criterion.',
  predicates: {
    checksPass: (_value, ctx) => {
      const view = ctx.verification();
      if (view.plan.checks.length === 0) {
        return [
          report(rule, {
            message: 'No verification check applies to this work item, so nothing can prove it.',
            file: view.configFile,
            node: ctx.node.id,
            expected: 'at least one check under verification.checks',
            fix: 'Declare the checks that prove a work item under verification.checks in .the-loop/harness-config.yaml, or add one in the testing plan (docs/verification.md).',
          }),
        ];
      }
      return checksWithStatus(ctx, 'missing').map(({ evidence: c, file }) =>
        report(rule, {
          message: `No evidence for check "${c.check.id}": no run of it has been recorded.`,
          file,
          node: ctx.node.id,
          expected: 'a record written by `the-loop verify`',
          fix: `Run ${verifyCommand(ctx, c.check.id)}.`,
        }),
      );
    },
    criteriaVerified: (_value, ctx) => {
      const view = ctx.verification();
      const source = view.criteriaSource;
      if (!source) {
        return [report(rule, { message: 'No requirements.md or bugfix.md can be read, so no acceptance criterion can be proven.', file: ctx.pathOf('requirements.md'), node: ctx.node.id, fix: 'Write requirements.md (or bugfix.md) with its acceptance criteria.' })];
      }
      if (view.criteria.length === 0) {
        return [
          report(rule, {
            message: `${source.name} states no acceptance criterion, so nothing can be proven done.`,
            file: source.artifact.path,
            position: { line: 1, column: 1 },
            node: ctx.node.id,
            expected: 'EARS lines (`WHEN … THEN the system SHALL …`), `AC1: …` lines, or a list under an "Acceptance criteria" heading',
            fix: `Write the acceptance criteria in ${source.name}; each becomes AC1, AC2, … unless it names its own id.`,
          }),
        ];
      }
      if (view.criteria.every((c) => c.status === 'NOT_APPLICABLE')) {
        return [
          report(rule, {
            message: 'Every acceptance criterion is set aside as not applicable, so nothing is proven.',
            file: source.artifact.path,
            position: view.criteria[0]!.criterion.position,
            node: ctx.node.id,
            fix: 'Cover at least one criterion with a check; a proof that verifies nothing proves nothing.',
          }),
        ];
      }
      return view.criteria
        .filter((c) => c.cause === 'missing')
        .map((c) => {
          const id = c.criterion.id;
          const uncovered = c.evidence.length === 0;
          return report(rule, {
            message: uncovered ? `${id} is not proven: no check covers it.` : `${id} is not proven: no run of ${c.evidence.filter((e) => view.checks.some((k) => k.check.id === e && k.status === 'missing')).join(', ')} has been recorded.`,
            file: c.criterion.file,
            position: c.criterion.position,
            node: ctx.node.id,
            expected: 'VERIFIED',
            actual: c.status,
            fix: uncovered
              ? `Name ${id} in a check's covers (in .the-loop/harness-config.yaml or the testing plan), or set it aside under notApplicable with a reason in testing-plan.md.`
              : `Run ${verifyCommand(ctx)}.`,
          });
        });
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const CHECKS = oneNodeGraph('gate: [{checksPass: true}]');
  const CRITERIA = oneNodeGraph('gate: [{criteriaVerified: true}]');
  const unit = check('unit', ['AC1']);

  return {
    notOk: [
      { title: 'no check is declared at all', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([]), findings: ['.the-loop/harness-config.yaml'] },
      { title: 'a declared check that has never run', graph: CHECKS, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit]), findings: ['evidence/unit.json'] },
      { title: 'a criterion no check covers, at its line', graph: CRITERIA, files: { 'requirements.md': REQUIREMENTS }, input: verification([unit], { unit: record(unit) }), findings: ['requirements.md:6:1'] },
      { title: 'requirements with no acceptance criterion', graph: CRITERIA, files: { 'requirements.md': '# Requirements\n\nMake it nicer.\n' }, input: verification([unit], { unit: record(unit) }), findings: ['requirements.md:1:1'] },
    ],
    ok: [{ title: 'every check recorded, every criterion covered', graph: CRITERIA, files: { 'requirements.md': REQUIREMENTS }, input: verification([check('unit', ['AC1', 'AC2'])], { unit: record(check('unit', ['AC1', 'AC2'])) }) }],
  };
}
