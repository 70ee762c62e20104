import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, type Diagnostic } from '../diagnostic.js';
import { buildReport, countItem, emptyTotals, mergeTotals, type ReportInput } from './build-report.js';

const finding = fc.constantFrom(...RULE_IDS).map((ruleId): Diagnostic => ({ ruleId, severity: 'error', message: ruleId, file: 'tasks.md', url: `docs/rules.md#${ruleId}` }));
const result = (id: number) =>
  fc.record({
    currentNode: fc.option(fc.constantFrom('requirements', 'design', 'tasks', 'review'), { nil: null }),
    ok: fc.boolean(),
    findings: fc.array(finding, { maxLength: 4 }),
    artifacts: fc.dictionary(fc.constantFrom('requirements.md', 'design.md', 'tasks.md', 'notes.md'), fc.record({ status: fc.option(fc.constantFrom('draft', 'approved', 'done'), { nil: null }) })),
    logPhase: fc.option(fc.constantFrom('building', 'needs-review', 'done'), { nil: null }),
  }).map((rest): ReportInput => ({ workItem: `item-${id}`, ...rest }) as ReportInput);
const results = fc.integer({ min: 0, max: 30 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => result(i))));

describe('report totals', () => {
  it('counted a share at a time and merged in order, give exactly the report counted in one go (key order included)', () => {
    fc.assert(
      fc.property(results, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }), (inputs, sizes) => {
        const whole = buildReport('docs/specs', ['requirements.md', 'tasks.md'], inputs);
        const totals = emptyTotals('docs/specs', ['requirements.md', 'tasks.md']);
        const items = [];
        for (let at = 0, share = 0; at < inputs.length; share += 1) {
          const size = sizes[share % sizes.length] as number;
          const part = emptyTotals('docs/specs', ['requirements.md', 'tasks.md']);
          for (const input of inputs.slice(at, at + size)) items.push(countItem(part, input));
          mergeTotals(totals, part);
          at += size;
        }
        expect(JSON.stringify({ ...totals, items })).toBe(JSON.stringify(whole));
      }),
    );
  });
});
