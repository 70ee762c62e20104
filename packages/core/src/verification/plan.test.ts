import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { check } from '../evidence/examples.js';
import { defaultVerification } from './config.js';
import { planChecks } from './plan.js';

const config = { ...defaultVerification(), checks: [check('unit', ['AC1']), check('lint', [])] };
const plan = (front: string) => planChecks(config, parseArtifact('docs/specs/w/testing-plan.md', `---\n${front}---\n# Testing plan\n`));
const where = (p: ReturnType<typeof plan>) => p.problems.map((d) => `${d.line}:${d.column} ${d.message}`);

describe('a testing plan narrows and adds to the declared checks', () => {
  it('applies every declared check when there is no plan or no block', () => {
    expect(planChecks(config, undefined).checks.map((c) => [c.id, c.source])).toEqual([['unit', 'config'], ['lint', 'config']]);
    expect(plan('status: draft\n').checks).toHaveLength(2);
  });

  it('sets what a declared check covers, adds a check of its own, skips one and sets a criterion aside, each with its reason', () => {
    const p = plan(
      [
        'verification:',
        '  checks:',
        '    - {use: unit, covers: [AC1, AC2]}',
        '    - id: export-e2e',
        '      argv: [node, --test, test/export.test.mjs]',
        '      covers: [AC3]',
        '      paths: ["src/export/**"]',
        '  skip:',
        '    lint: Only generated files change, and lint does not read them.',
        '  notApplicable:',
        '    AC4: The hosted edition alone sends e-mail.',
        '',
      ].join('\n'),
    );
    expect(p.problems).toEqual([]);
    expect(p.checks.map((c) => ({ id: c.id, source: c.source, covers: c.covers, paths: c.paths }))).toEqual([
      { id: 'unit', source: 'config', covers: ['AC1', 'AC2'], paths: undefined },
      { id: 'export-e2e', source: 'testing-plan.md', covers: ['AC3'], paths: ['src/export/**'] },
    ]);
    expect(p.skipped).toEqual([{ id: 'lint', reason: 'Only generated files change, and lint does not read them.', file: 'docs/specs/w/testing-plan.md', position: { line: 10, column: 11 } }]);
    expect(p.notApplicable.map((n) => [n.id, n.reason, n.position.line])).toEqual([['AC4', 'The hosted edition alone sends e-mail.', 12]]);
  });

  it('changes nothing and says where when the block is wrong: an unknown check, a shell line, a reason left as a placeholder, an unknown key', () => {
    const p = plan(['verification:', '  checks:', '    - {use: unitt}', '    - {id: e2e, argv: "pnpm e2e"}', '  skip:', '    lint: <why>', '  notAplicable: {}', ''].join('\n'));
    expect(p.checks.map((c) => c.id)).toEqual(['unit', 'lint']);
    expect(p.skipped).toEqual([]);
    expect(where(p)).toEqual([
      '7:11 The testing plan\'s verification block is invalid: verification.skip.lint: must say why (a placeholder is not a reason).',
      '8:3 The testing plan\'s verification block is invalid: unknown key "notAplicable" (did you mean "notApplicable"?).',
    ]);
    const q = plan(['verification:', '  checks:', '    - {use: unitt}', '    - {id: e2e, argv: "pnpm e2e"}', '    - {id: unit, argv: [x]}', ''].join('\n'));
    expect(where(q)).toEqual([
      '4:13 The testing plan\'s verification block is invalid: "unitt" is not a check declared in the configuration (declared: unit, lint).',
      '5:23 The testing plan\'s verification block is invalid: verification.checks[1].argv: must be a list such as [pnpm, test], never a shell line.',
      '6:12 The testing plan\'s verification block is invalid: "unit" is already declared in the configuration; write {use: unit} to set what it covers.',
    ]);
  });
});
