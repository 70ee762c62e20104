import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlank, isPlaceholderText, mayHoldTemplatePrompts, templatePrompts } from './content.js';
import { findSection } from './find-section.js';
import { extractFacts, parseArtifact } from './parse-artifact.js';

const securityDesign = (body: string) => findSection(parseArtifact('design.md', `# Design\n\n## Security design\n\n${body}\n\n## Testing\n\nUnit tests.\n`), 'Security design');

describe('template placeholders joined by punctuation', () => {
  it('treats `<boundary>: <control>` left from a template as empty', () => {
    const section = securityDesign('<!-- Say how each boundary is protected. -->\n\n<boundary>: <control>');
    expect(section?.empty).toBe(true);
    expect(section?.position).toEqual({ line: 3, column: 1 });
  });

  it('treats punctuation-only runs between placeholders as placeholder text', () => {
    expect(isPlaceholderText(': ')).toBe(true);
    expect(isPlaceholderText('<risk> — <mitigation>.')).toBe(true);
  });

  it('still counts a written boundary, a number or a word as content', () => {
    expect(securityDesign('**Reset tokens**: hashed and single use.')?.empty).toBe(false);
    expect(securityDesign('<boundary>: 42')?.empty).toBe(false);
    expect(isPlaceholderText('<boundary>: signed')).toBe(false);
  });
});

describe('a run of text judged by its first character', () => {
  // The judgement word by word, with no look at the first character first.
  const byWords = (value: string): boolean =>
    value
      .replace(/<[^<>=/"']*>/g, ' ')
      .split(/\s+/)
      .filter((word) => word !== '')
      .every((word) => ['tbd', 'todo', 'tba', '…', '...'].includes(word.toLowerCase()) || /^\p{P}+$/u.test(word));

  it('is judged as word by word, whatever the text opens with (property)', () => {
    const piece = fc.constantFrom('TBD', 'tbd', 'Todo', 'tba', 'Tba.', 'to', 't', 'T', 'x', 'Z', '0', '9', '…', '...', '—', ':', '<a b>', '<', '>', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', 'é', '`', '@', '[', '_', '{');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        expect(isPlaceholderText(text), JSON.stringify(text)).toBe(byWords(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('a file with no prompt anywhere', () => {
  it('has none in any run of its text: every prompt found in a piece of the file, as written there, is seen in the whole (property)', () => {
    const piece = fc.constantFrom('<what is wrong today>', '<b>x</b>', '<details open>', '_', '**', '`', '\\', '&lt;', '&gt;', '<!--', '-->', 'word', ' ', '\n', '[NEEDS CLARIFICATION: who?]', '[NEEDS CLARIFICATION:', 'Map<string, number>', '<a', 'b>', '=', '"', '<', '>', 'x y', '- ', '> ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), fc.nat(), fc.nat(), (parts, from, length) => {
        const text = parts.join('');
        const start = from % (text.length + 1);
        // Any run of the file, with any character before it removed (as emphasis or an escape is).
        for (const run of [text.slice(start, start + length), text.slice(start + 1, start + 1 + length)]) {
          for (const prompt of templatePrompts(run)) if (text.includes(prompt.text)) expect(mayHoldTemplatePrompts(text), `${JSON.stringify(text)} holds ${prompt.text}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    expect(extractFacts('# T\n\n_<what is wrong today>_\n').diagnostics.map((d) => d.ruleId)).toContain('template-residue');
  });
});

describe('a prompt written in a code span', () => {
  it('is no prompt, and a prompt after the span is reported where it stands', () => {
    const at = (text: string): string[] => extractFacts(text).diagnostics.map((d) => `${d.line}:${d.column} ${d.actual ?? ''}`);
    expect(at('`<describe it>` then <describe it>\n')).toEqual(['1:22 <describe it>']);
    expect(at('`<describe it>\n`<describe it>\n')).toEqual(['2:2 <describe it>']);
    expect(at('Use `<what is wrong>` as written.\n')).toEqual([]);
  });
});

describe('a prompt-like phrase that is no prompt where it stands', () => {
  it('does not take the place of the same prompt later in the paragraph or in a later HTML block', () => {
    const at = (text: string): string[] => extractFacts(text).diagnostics.map((d) => `${d.line}:${d.column} ${d.actual ?? ''}`);
    expect(at('<!-- note -->word<describe it>\n<describe it>\n')).toEqual(['2:1 <describe it>']);
    expect(at('0\\<describe it>\n<describe it>\n')).toEqual(['2:1 <describe it>']);
    expect(at('&#10;<describe it>\n')).toEqual(['1:6 <describe it>']);
  });
});

describe('blank text', () => {
  it('is text String#trim empties, found without a copy, whatever whitespace it holds', () => {
    const space = fc.constantFrom(' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff', '\u200b', 'x', '');
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(space).map((parts) => parts.join(''))), (text) => {
      expect(isBlank(text), JSON.stringify(text)).toBe(text.trim() === '');
    }), { numRuns: 500 });
  });
});
