import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds, compareText } from './diagnostic.js';

// What compareIds answered before it had a path of its own for plain ids: the collator alone.
const collator = new Intl.Collator('en', { numeric: true });
const byCollator = (a: string, b: string) => collator.compare(a, b) || compareText(a, b);
const sign = (n: number) => Math.sign(n);

const plainId = fc.stringMatching(/^[a-z0-9-]{0,12}$/);
const idLike = fc
  .tuple(fc.constantFrom('issue', 'item', 'a', 'b', 'spec', 'x-'), fc.constantFrom('-', '', '--'), fc.nat(2000), fc.constantFrom('', '0', '00'), fc.constantFrom('', '-b', 'a', '-2'))
  .map(([word, sep, n, zeros, tail]) => `${word}${sep}${zeros}${n}${tail}`);

describe('compareIds', () => {
  it('orders plain ids exactly as the collator does, numbers by value', () => {
    fc.assert(
      fc.property(fc.oneof(plainId, idLike), fc.oneof(plainId, idLike), (a, b) => {
        expect(sign(compareIds(a, b))).toBe(sign(byCollator(a, b)));
      }),
      { numRuns: 3000 },
    );
  });

  it('sorts issue-3 before issue-11, and ids with capitals or underscores through the collator', () => {
    expect(['issue-11', 'issue-3', 'issue-003', 'issue-2a', 'issue', 'issue-10-b'].sort(compareIds)).toEqual(['issue', 'issue-2a', 'issue-003', 'issue-3', 'issue-10-b', 'issue-11']);
    expect(['B-2', 'a_1', 'a-1', 'A-10'].sort(compareIds)).toEqual(['B-2', 'a_1', 'a-1', 'A-10'].sort(byCollator));
  });
});
