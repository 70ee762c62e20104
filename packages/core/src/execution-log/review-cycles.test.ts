import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { DEFAULT_OUTCOME_WORDS, DEFAULT_REVIEW_CYCLES, outcomeOf, readReviewCycles, roundRan } from './review-cycles.js';

const log = (...lines: string[]) => parseArtifact('execution-log.md', ['# Execution log', ...lines, ''].join('\n'));
const rounds = (...lines: string[]) => readReviewCycles(log(...lines), DEFAULT_REVIEW_CYCLES).rounds.map((r) => `${r.type} ${r.outcome ?? `?${r.written}`}`);

describe('outcomeOf', () => {
  it.each([
    ['zero', 'zero'],
    ['**Zero** (after fixes)', 'zero'],
    ['No new findings', 'zero'],
    ['LGTM', 'zero'],
    ['new findings: 3', 'findings'],
    ['Changes requested', 'findings'],
    ['escalated to a human', 'escalated'],
    ['unavailable: not on PATH', 'unavailable'],
    ['N/A', 'unavailable'],
    ['0', 'zero'],
    ['3 (2 fixed)', 'findings'],
  ])('reads %s as %s', (cell, outcome) => {
    expect(outcomeOf(cell, DEFAULT_OUTCOME_WORDS)).toBe(outcome);
  });

  it('reads whole words only, and nothing it does not know', () => {
    expect(outcomeOf('zeroed out', DEFAULT_OUTCOME_WORDS)).toBeUndefined();
    expect(outcomeOf('pending', DEFAULT_OUTCOME_WORDS)).toBeUndefined();
    expect(outcomeOf('', DEFAULT_OUTCOME_WORDS)).toBeUndefined();
  });

  it('reads configured words instead of the built-in ones', () => {
    expect(outcomeOf('sauber', { ...DEFAULT_OUTCOME_WORDS, zero: ['sauber'] })).toBe('zero');
    expect(outcomeOf('zero', { ...DEFAULT_OUTCOME_WORDS, zero: ['sauber'] })).toBeUndefined();
  });

  it('counts a round that ran, never one that could not', () => {
    expect(['findings', 'zero', 'escalated', 'unavailable', undefined].map((o) => roundRan(o as never))).toEqual([true, true, true, false, false]);
  });
});

describe('readReviewCycles', () => {
  it('reads Type and Outcome columns in any order, a Reviewer column beside them left alone', () => {
    expect(rounds('## Review cycles', '| Outcome | Reviewer | Round | Type |', '|---|---|---|---|', '| zero | codex | 1 | self |', '| findings | gpt | 2 | critic |')).toEqual(['self zero', 'critic findings']);
  });

  it('reads a Findings column as a count when there is no Outcome column', () => {
    expect(rounds('## Review cycles', '| # | Kind | Findings |', '|---|---|---|', '| 1 | self | 0 |', '| 2 | critic | 4 |', '| 3 | security | none |')).toEqual(['self zero', 'critic findings', 'security zero']);
  });

  it('takes the type from a Reviewer column when there is no Type column', () => {
    expect(rounds('## Review cycles (self → critic)', '| Round | Reviewer | Result |', '|---|---|---|', '| 1 | Self-review | clean |')).toEqual(['self-review zero']);
  });

  it('finds the table under any configured heading, in every table there, and says when a column is missing', () => {
    const text = log('## Review rounds', '| Round | Type | Verdict |', '|---|---|---|', '| 1 | self | pass |', '### Round 2', '| Round | Type | Verdict |', '|---|---|---|', '| 2 | critic | skipped |');
    expect(readReviewCycles(text, DEFAULT_REVIEW_CYCLES).tables).toEqual([]);
    const read = readReviewCycles(text, { ...DEFAULT_REVIEW_CYCLES, sections: ['review rounds', 'round 2'] });
    expect(read.rounds.map((r) => `${r.type} ${r.outcome}`)).toEqual(['self zero', 'critic unavailable']);
    expect(readReviewCycles(log('## Review cycles', '| Round | Notes |', '|---|---|', '| 1 | fine |'), DEFAULT_REVIEW_CYCLES).missingColumn).toBe('type');
  });
});
