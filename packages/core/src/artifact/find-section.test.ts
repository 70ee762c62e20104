import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTitle } from './find-section.js';

describe('normalizeTitle', () => {
  it('drops surrounding whitespace and trailing colons, squashes whitespace and ignores case', () => {
    expect(normalizeTitle('  Security\tDesign :: ')).toBe('security design');
    expect(normalizeTitle('Trust Boundaries')).toBe('trust boundaries');
    expect(normalizeTitle('\u00a0Risks:')).toBe('risks');
    expect(normalizeTitle(':')).toBe('');
  });

  it('gives every title what trimming, cutting and squashing it in turn gives', () => {
    const title = fc.array(fc.constantFrom('a', 'B', ' ', '\t', '\n', ':', '\u00a0', '\ufeff', 'É', '-'), { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(title, (text) => {
        expect(normalizeTitle(text)).toBe(text.trim().replace(/[:\s]+$/, '').replace(/\s+/g, ' ').toLowerCase());
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2000) },
    );
  });
});
