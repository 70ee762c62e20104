import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { findingText, parseRoundRecord, readReviewAnswer, reviewPrompt, type RoundFinding, type RoundRecord } from './review-round.js';

const previous: RoundFinding[] = [
  { id: 'R2.1', file: 'src/sync.ts', line: 40, summary: 'retryFetch retries a 401 forever', repeats: null },
  { id: 'R2.2', file: 'src/cache.ts', line: null, summary: 'the cache key omits the locale', repeats: null },
];

describe('readReviewAnswer', () => {
  it('numbers the findings of the round and calls a round with only new findings "new findings"', () => {
    const reading = readReviewAnswer({ findings: [{ file: 'src/a.ts', line: 3, summary: 'no test for the error path' }] }, 3, previous);
    expect(reading).toEqual({ ok: true, outcome: 'new findings', findings: [{ id: 'R3.1', file: 'src/a.ts', line: 3, summary: 'no test for the error path', repeats: null }] });
  });

  it('calls an empty list "zero" and a finding that repeats the previous round\'s "escalated"', () => {
    expect(readReviewAnswer({ findings: [] }, 3, previous)).toEqual({ ok: true, outcome: 'zero', findings: [] });
    const repeated = readReviewAnswer({ findings: [{ file: 'src/b.ts', summary: 'new' }, { file: 'src/sync.ts', line: 41, summary: 'still retries a 401', repeats: 'R2.1' }] }, 3, previous);
    expect(repeated).toMatchObject({ ok: true, outcome: 'escalated', findings: [{ id: 'R3.1', repeats: null }, { id: 'R3.2', repeats: 'R2.1' }] });
  });

  it('reads nothing from prose, another shape, or a repeat of a finding that was never reported', () => {
    expect(readReviewAnswer(undefined, 3, previous)).toEqual({ ok: false, reason: 'the review was not a JSON object' });
    expect(readReviewAnswer({ issues: [] }, 3, previous)).toMatchObject({ ok: false, reason: expect.stringContaining('unknown key "issues"') });
    expect(readReviewAnswer({ findings: [{ file: 'a', summary: '   ' }] }, 3, previous)).toMatchObject({ ok: false, reason: expect.stringContaining('findings[0].summary: must not be empty') });
    expect(readReviewAnswer({ findings: [{ file: 'a', summary: 'x', repeats: 'R1.1' }] }, 3, previous)).toEqual({
      ok: false,
      reason: 'a finding repeats "R1.1", which the previous round did not report (it reported R2.1, R2.2)',
    });
  });

  it('escalates exactly when a read answer repeats a finding, and never counts an unread one', () => {
    const finding = fc.record({ file: fc.string({ minLength: 1, maxLength: 20 }), summary: fc.string({ minLength: 1, maxLength: 40 }), repeats: fc.option(fc.constantFrom('R2.1', 'R2.2', 'R9.9'), { nil: undefined }) });
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ findings: fc.array(finding, { maxLength: 5 }) })), (answer) => {
        const reading = readReviewAnswer(answer, 3, previous);
        if (!reading.ok) return;
        expect(reading.findings.every((f) => f.repeats === null || ['R2.1', 'R2.2'].includes(f.repeats))).toBe(true);
        expect(reading.outcome === 'escalated').toBe(reading.findings.some((f) => f.repeats !== null));
        expect(reading.outcome === 'zero').toBe(reading.findings.length === 0);
        expect(new Set(reading.findings.map((f) => f.id)).size).toBe(reading.findings.length);
      }),
    );
  });
});

describe('the reviewer\'s prompt and the round file', () => {
  const record: RoundRecord = {
    schemaVersion: 1,
    workItem: 'issue-7',
    node: 'critic-review',
    cycle: 2,
    type: 'critic',
    reviewer: '[cursor/gpt-5]',
    critic: 'cursor-gpt',
    outcome: 'new findings',
    at: '2026-03-01T10:00:00.000Z',
    findings: previous,
    error: null,
  };

  it('lists the previous round\'s findings by id and asks for the JSON answer', () => {
    const prompt = reviewPrompt({ node: getDefaultGraph().byId.get('critic-review')!, type: 'critic', workItem: 'issue-7', dir: 'docs/specs/issue-7', cycle: 3, previous: record });
    expect(prompt).toContain('Review round 3 (critic review) of work item issue-7, at node "critic-review".');
    expect(prompt).toContain('- R2.1 src/sync.ts:40 retryFetch retries a 401 forever');
    expect(prompt).toContain('- R2.2 src/cache.ts the cache key omits the locale');
    expect(prompt).toContain('{"findings": [{"file": "<path from the repository root>"');
    expect(findingText({ ...previous[0]!, id: 'R3.1', repeats: 'R2.1' })).toBe('R3.1 src/sync.ts:40 retryFetch retries a 401 forever (repeats R2.1)');
  });

  it('reads a round file back, and names the line of a wrong one', () => {
    const text = `${JSON.stringify(record, null, 2)}\n`;
    expect(parseRoundRecord('reviews/cycle-2.json', text)).toEqual({ ok: true, record });
    const broken = parseRoundRecord('reviews/cycle-2.json', text.replace('"new findings"', '"converged"'));
    expect(broken.ok === false && broken.issues).toEqual([{ file: 'reviews/cycle-2.json', line: 9, column: 14, message: expect.stringContaining('outcome') }]);
    expect(parseRoundRecord('reviews/cycle-2.json', '{"schemaVersion": 1,').ok).toBe(false);
  });
});
