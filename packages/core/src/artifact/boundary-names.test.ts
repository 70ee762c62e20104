import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundariesIn, unmentioned, wordsOf, type Boundary } from './boundary-names.js';
import { parseArtifact } from './parse-artifact.js';

const boundaries = (...lines: string[]): Boundary[] => boundariesIn(parseArtifact('r.md', ['## Security considerations', ...lines].join('\n')).sections[0]?.items ?? []);
const named = (...lines: string[]): string[] => boundaries(...lines).map((b) => [b.id, b.name].filter(Boolean).join(' '));

describe('boundariesIn: a boundary is a name, not a sentence', () => {
  it.each([
    ['- **Webhook endpoint**: signed', 'Webhook endpoint'],
    ['- `token store` at rest', 'token store'],
    ['- Admin panel: behind SSO', 'Admin panel'],
    ['- Admin panel — behind SSO', 'Admin panel'],
    ['- The **billing API** authenticates each call', 'billing API'],
    ['- **Bounce webhook (mail provider)**: verified', 'Bounce webhook'],
    ['- **The export queue.**', 'export queue'],
    ['- plain', 'plain'],
    ['- **Export queue…**', 'Export queue'],
    ['- **Signing key。**', 'Signing key'],
    ['- **Admin (intern)。**', 'Admin'],
    ['- **Café terminal** (kiosk) ¿', 'Café terminal'],
    ['- **Zahlungs-Schnittstelle**: signiert', 'Zahlungs-Schnittstelle'],
  ])('%s names "%s"', (line, name) => {
    expect(named(line)).toEqual([name]);
  });

  it.each([
    '- All tokens are stored encrypted at rest.',
    '- **Never log tokens.**',
    '- **The export worker must run with a scoped role**: least privilege',
    '- WHEN a webhook arrives THEN the system SHALL verify its signature',
    '1. IF the token has expired THEN the system SHALL refuse the call',
    '- Tokens expire after one hour of inactivity on any device.',
    '- **<boundary>**: <control>',
    '- TBD',
    '- Die Daten werden geprüft.',
    '- **١٢٣**',
  ])('%s names none', (line) => {
    expect(named(line)).toEqual([]);
  });
});

describe('boundariesIn: template labels', () => {
  it('never takes a category lead-in, or what follows it, for a boundary', () => {
    expect(named('- **Actors & trust:** account admins (MFA); the export worker', '- **Abuse cases (EARS):** IF a guest exports THEN the system SHALL refuse', '- Data classification: PII', '- **Mitigations**: rate limits')).toEqual([]);
  });

  it('takes the names listed after a boundary label, and the items nested under it', () => {
    expect(named('- **Trust boundaries:** the presigned URL (public), the export queue; admin console', '- Trust boundaries:', '  - **Webhook endpoint**: signed', '  - every call is logged')).toEqual([
      'presigned URL',
      'export queue',
      'admin console',
      'Webhook endpoint',
    ]);
  });

  it('skips lists in a subsection named by a category label', () => {
    expect(named('### Abuse cases', '- **Replay**: an old webhook sent again', '### Trust boundaries', '- **Webhook endpoint**: signed')).toEqual(['Webhook endpoint']);
  });
});

describe('boundariesIn: whitespace', () => {
  it('reads the same boundaries whatever whitespace separates the words (property)', () => {
    const word = fc.constantFrom('Webhook', 'endpoint', 'TB-2', 'The', 'SHALL', 'Trust boundaries:', '(x)', 'token', 'store', '—', '-', ':', 'and', ',', ';', 'TBD', '<b>', 'Actors:', 'is.');
    const space = fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', ' \n ', '\u2003', '\r\n');
    const entry = (text: string, lead: string | undefined) => ({ text, ...(lead !== undefined ? { lead } : {}), children: [], position: { line: 1, column: 1 } });
    const read = (text: string, lead: string | undefined) => boundariesIn([entry(text, lead)]).map((b) => [b.id, b.name]);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 10 }), fc.nat(3), (parts, leadWords) => {
        const plain = parts.map(([text]) => text).join(' ');
        const spaced = parts.map(([text, gap]) => text + gap).join('');
        const lead = (joined: (part: [string, string]) => string, separator: string) => (leadWords === 0 ? undefined : parts.slice(0, leadWords).map(joined).join(separator));
        expect(read(spaced, lead(([text, gap]) => text + gap, ''))).toEqual(read(plain, lead(([text]) => text, ' ')));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('boundariesIn: explicit ids', () => {
  it.each([
    ['- **TB-1** Presigned download URL — public', 'TB-1 Presigned download URL'],
    ['- **TB-2: Export queue**', 'TB-2 Export queue'],
    ['- AC3: WHEN a guest exports THEN the system SHALL refuse', 'AC3'],
    ['- [SEC-01] Admin console: SSO only', 'SEC-01 Admin console'],
    ['- `FR-001` webhook intake', 'FR-001 webhook intake'],
  ])('%s anchors on the id', (line, expected) => {
    expect(named(line)).toEqual([expected]);
  });
});

// Whether a text names a boundary, as the rule asks it.
const mentions = (text: string, boundary: Boundary): boolean => unmentioned(text, [boundary]).length === 0;

describe('mentions', () => {
  const text = 'The **Presigned**\ndownload URLs expire; see tb2 and AC-3. The `token_store` is sealed.';

  it('ignores case, emphasis, punctuation, line breaks and a plural s', () => {
    expect(mentions(text, { name: 'presigned download URL', position: { line: 1, column: 1 } })).toBe(true);
    expect(mentions(text, { name: 'Token store', position: { line: 1, column: 1 } })).toBe(true);
  });

  it('accepts any form of each word, and one other word between two words of the name', () => {
    const design = 'Passwords are hashed with argon2id; the session is kept in a store.';
    expect(mentions(design, { name: 'Password hashes', position: { line: 1, column: 1 } })).toBe(true);
    expect(mentions(design, { name: 'Session store', position: { line: 1, column: 1 } })).toBe(false);
    expect(mentions('caches are signed', { name: 'cache signing', position: { line: 1, column: 1 } })).toBe(true);
  });

  it('matches whole words only: a name inside another word is not a mention', () => {
    expect(mentions('rapid iteration', { name: 'API', position: { line: 1, column: 1 } })).toBe(false);
  });

  it('finds an id with or without its hyphen, never a longer id', () => {
    expect(mentions(text, { id: 'TB-2', position: { line: 1, column: 1 } })).toBe(true);
    expect(mentions(text, { id: 'AC3', position: { line: 1, column: 1 } })).toBe(true);
    expect(mentions('TB-21 and XTB-2', { id: 'TB-2', position: { line: 1, column: 1 } })).toBe(false);
  });

  it('is what its definition says: the words of the name in order, any form of each, at most one word between (property)', () => {
    // The definition, read literally: a word's forms are itself and itself less s, es, d, ed or
    // ing when three letters or more remain; two words match when they share a form.
    const forms = (word: string) => [word, ...['s', 'es', 'd', 'ed', 'ing'].filter((s) => word.endsWith(s) && word.length - s.length >= 3).map((s) => word.slice(0, -s.length))];
    const same = (a: string, b: string) => forms(a).some((form) => forms(b).includes(form));
    const wordsIn = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const named = (text: string, name: string): boolean => {
      const hay = wordsIn(text);
      const run = wordsIn(name);
      const from = (at: number, next: number): boolean => next === run.length || [at + 1, at + 2].some((i) => i < hay.length && same(hay[i] as string, run[next] as string) && from(i, next + 1));
      return run.length > 0 && hay.some((word, i) => same(word, run[0] as string) && from(i, 1));
    };
    const word = fc.constantFrom('cache', 'caches', 'cached', 'caching', 'store', 'stores', 'stored', 'sign', 'signs', 'signed', 'signing', 'hash', 'hashes', 'hashed', 'bus', 'buses', 'is', 'as', 'ass', 'ising', 'the', 'token', 'tokens', 'ed', 'ing');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), fc.array(word, { minLength: 1, maxLength: 3 }), (text, name) => {
        const [hay, wanted] = [text.join(' '), name.join(' ')];
        expect(mentions(hay, { name: wanted, position: { line: 1, column: 1 } })).toBe(named(hay, wanted));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the same words from ASCII text and from any other, letters and digits of every script (property)', () => {
    const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('Straße', 'İstanbul', '\u212a', 'ﬁle', '٣', 'Ⅻ', 'x₂', 'TB-2', '𝐀𝐁'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join(' ');
        expect(wordsOf(text)).toEqual(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
      }),
      { numRuns: 2000 },
    );
  });

  it('names every boundary it finds with words of its own item (property)', () => {
    const word = fc.constantFrom('**', '`', 'Webhook', 'endpoint', 'TB-2', ':', ' — ', 'the', 'SHALL', 'Trust boundaries:', '(x)', ',', ';', 'and', '.', '<b>', '\n  - ', ' ');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 14 }), (parts) => {
        const line = `- ${parts.join(' ')}`;
        for (const boundary of boundaries(line)) expect(mentions(line, boundary), JSON.stringify(boundary)).toBe(true);
      }),
    );
  });
});

describe('unmentioned: one pass for every boundary', () => {
  // The form it replaced, one boundary at a time over an index of every word of the text: the
  // reference the single pass must agree with.
  const indexed = (text: string) => {
    const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const at = new Map<string, number[]>();
    words.forEach((word, index) => at.set(word, [...(at.get(word) ?? []), index]));
    return { text, words, at };
  };
  const SUFFIXES = ['s', 'es', 'd', 'ed', 'ing'];
  const hasSuffix = (word: string, suffix: string) => word.length - suffix.length >= 3 && word.endsWith(suffix);
  const stems = (word: string) => [word, ...SUFFIXES.filter((suffix) => hasSuffix(word, suffix)).map((suffix) => word.slice(0, -suffix.length))];
  const before = (haystack: ReturnType<typeof indexed>, boundary: Boundary): boolean => {
    if (boundary.id !== undefined) {
      const [, letters, digits] = /^([A-Z]+)-?(.*)$/.exec(boundary.id) ?? [];
      if (new RegExp(`(?<![\\p{L}\\p{N}])${letters}-?${(digits ?? '').replace(/\./g, '\\.')}(?![\\p{N}]|\\.\\d)`, 'iu').test(haystack.text)) return true;
    }
    if (boundary.name === undefined) return false;
    const run = indexed(boundary.name).words.map(stems);
    if (run.length === 0) return false;
    const matches = (index: number, word: readonly string[]) => index < haystack.words.length && stems(haystack.words[index] as string).some((stem) => word.includes(stem));
    const follows = (from: number, next: number): boolean => next === run.length || [from + 1, from + 2].some((index) => matches(index, run[next] as string[]) && follows(index, next + 1));
    const occurrences = (stem: string) => [...(haystack.at.get(stem) ?? []), ...SUFFIXES.filter((suffix) => hasSuffix(stem + suffix, suffix)).flatMap((suffix) => haystack.at.get(stem + suffix) ?? [])];
    return (run[0] as string[]).flatMap(occurrences).some((index) => follows(index, 1));
  };

  it('leaves out exactly the boundaries the former index found named, in their order (property)', () => {
    const word = fc.constantFrom('cache', 'caches', 'cached', 'caching', 'store', 'stored', 'sign', 'signing', 'hash', 'hashes', 'bus', 'buses', 'the', 'Token', 'TOKENS', 'tb', 'TB-2', 'tb2', 'AC-3.1', 'v10', '100ms', 's3', 'Straße', 'İstanbul', 'x₂', '٣', 'ed', 'ing', 'as', 'ass', 'is', 'ising', '7TB-2', 'ac3x');
    const gap = fc.constantFrom(' ', '\n', ', ', '**', '`', '_', '-', ': ', ' — ', '.');
    const phrase = fc.array(fc.tuple(word, gap), { maxLength: 40 }).map((parts) => parts.flat().join(''));
    const boundary = fc.record({ id: fc.option(fc.constantFrom('TB-2', 'AC3', 'AC-3.1', 'SEC-01'), { nil: undefined }), name: fc.option(phrase, { nil: undefined }) }).map(({ id, name }): Boundary => ({ ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name: name.slice(0, 60) } : {}), position: { line: 1, column: 1 } }));
    fc.assert(
      fc.property(fc.oneof(phrase, fc.string({ unit: 'binary', maxLength: 40 })), fc.array(boundary, { maxLength: 6 }), (text, named) => {
        const haystack = indexed(text);
        expect(unmentioned(text, named)).toEqual(named.filter((b) => !before(haystack, b)));
      }),
      { numRuns: 3000 },
    );
  });
});
