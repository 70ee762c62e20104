import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSection, normalizeTitle } from './find-section.js';
import { parseArtifact } from './parse-artifact.js';

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

describe('findSection', () => {
  const artifact = parseArtifact('design.md', '# Design\n\n## Security design\n\nTLS.\n\n## Risks:\n\n## security DESIGN\n\nA second one.\n');

  it('finds the first section of a title, whatever its case, spacing or trailing colon, as often as asked', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(findSection(artifact, 'security design')?.position.line).toBe(3);
      expect(findSection(artifact, '  RISKS ')?.position.line).toBe(7);
      expect(findSection(artifact, 'Threats')).toBeUndefined();
    }
  });

  it('leaves the sections as they were: their JSON and their keys show no index', () => {
    const before = JSON.stringify(artifact.sections);
    findSection(artifact, 'Risks');
    expect(JSON.stringify(artifact.sections)).toBe(before);
    expect(Object.keys(artifact.sections)).toEqual(artifact.sections.map((_, index) => String(index)));
  });

  it('reads frozen sections as any others', () => {
    const frozen = { ...artifact, sections: Object.freeze([...artifact.sections]) };
    expect(findSection(frozen, 'risks')?.position.line).toBe(7);
    expect(findSection(frozen, 'risks')?.position.line).toBe(7);
  });
});
