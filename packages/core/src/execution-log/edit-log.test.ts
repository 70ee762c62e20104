import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { appendTableRow, appendToSection, appendTransitionRow, setFrontMatterValue } from './edit-log.js';

const row = { at: '2026-01-01T00:00:00.000Z', from: 'design', to: 'design-approval', outcome: 'pass', note: 'a | b' };

describe('setFrontMatterValue', () => {
  it('changes only the phase, keeping other keys, comments and the body', () => {
    const text = '---\ntitle: "Log"   # keep me\nphase: needs-review   # not-started | brainstorming\nowner: ann\n---\n# Body\n\n- [ ] task\n';
    const result = setFrontMatterValue(text, 'phase', 'design');
    expect(result.ok && result.text).toBe('---\ntitle: "Log" # keep me\nphase: design # not-started | brainstorming\nowner: ann\n---\n# Body\n\n- [ ] task\n');
    expect(result.ok && parseArtifact('x.md', result.text).frontMatter?.data).toEqual({ title: 'Log', phase: 'design', owner: 'ann' });
  });

  it('adds front-matter to a file without it, and keeps CRLF', () => {
    expect(setFrontMatterValue('# Log\n', 'phase', 'design')).toEqual({ ok: true, text: '---\nphase: design\n---\n# Log\n' });
    const crlf = setFrontMatterValue('---\r\nphase: a\r\n---\r\n# Log\r\n', 'phase', 'b');
    expect(crlf.ok && crlf.text).toBe('---\r\nphase: b\r\n---\r\n# Log\r\n');
  });

  it('finds front-matter where the parser does: after a byte-order mark, and a fence with spaces after it', () => {
    expect(setFrontMatterValue('\uFEFF---\nphase: a\n---  \n# Log\n', 'phase', 'b')).toEqual({ ok: true, text: '\uFEFF---\nphase: b\n---\n# Log\n' });
  });

  it('leaves a front-matter that gives a key twice alone, as the gate reads it invalid', () => {
    expect(setFrontMatterValue('---\nphase: a\nphase: b\n---\n# Log\n', 'phase', 'c')).toMatchObject({ ok: false, reason: expect.stringContaining('does not parse') });
  });

  it('leaves a broken front-matter alone', () => {
    expect(setFrontMatterValue('---\nphase: [unclosed\n---\n', 'phase', 'x').ok).toBe(false);
  });

  it('refuses a front-matter that is a list or a scalar instead of throwing', () => {
    for (const inner of ['- a\n- b\n', '[1, 2]\n', 'just text\n']) {
      expect(setFrontMatterValue(`---\n${inner}---\n# Log\n`, 'phase', 'x')).toEqual({ ok: false, reason: 'its front-matter is not a mapping' });
    }
  });

  it('always yields front-matter that parses to the new value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('title', 'owner', 'status'), fc.string({ maxLength: 12 })), fc.stringMatching(/^[a-z][a-z-]{0,15}$/), (data, phase) => {
        const text = `---\n${Object.entries(data).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n---\n# Body\n`;
        const result = setFrontMatterValue(text, 'phase', phase);
        expect(result.ok).toBe(true);
        if (result.ok) expect(parseArtifact('x.md', result.text).frontMatter?.data).toEqual({ ...data, phase });
      }),
    );
  });
});

describe('appendTransitionRow', () => {
  it('creates the section and table when absent', () => {
    const out = appendTransitionRow('---\nphase: design\n---\n# Log\n', row);
    const table = parseArtifact('x.md', out).tables.find((t) => t.section === 'Phase transitions');
    expect(table?.header).toEqual(['When', 'From', 'To', 'Outcome', 'Note']);
    expect(table?.rows.map((r) => r.cells)).toEqual([['2026-01-01T00:00:00.000Z', 'design', 'design-approval', 'pass', 'a | b']]);
  });

  it('appends under the existing rows, before the next section', () => {
    const text = '# Log\n\n## Phase transitions\n\n| When | From | To | Outcome | Note |\n| --- | --- | --- | --- | --- |\n| t0 | (start) | design | start | — |\n\n## Review cycles\n\n| Round | Type | Outcome |\n| --- | --- | --- |\n| 1 | self | zero |\n';
    const out = appendTransitionRow(text, row);
    const artifact = parseArtifact('x.md', out);
    expect(artifact.tables.find((t) => t.section === 'Phase transitions')?.rows.length).toBe(2);
    expect(artifact.tables.find((t) => t.section === 'Review cycles')?.rows.length).toBe(1);
  });

  it('finds the table past a code block whose lines start with #, and keeps prose after a new table apart from it', () => {
    const fenced = '# Log\n\n## Phase transitions\n\n```sh\n# run this\n```\n\n| When | From | To | Outcome | Note |\n| --- | --- | --- | --- | --- |\n| t0 | (start) | design | start | — |\n\n## Next\n';
    const tables = parseArtifact('x.md', appendTransitionRow(fenced, row)).tables;
    expect(tables.map((t) => t.rows.map((r) => r.cells[0]))).toEqual([['t0', '2026-01-01T00:00:00.000Z']]);

    const prose = appendTransitionRow('# Log\n\n## Phase transitions\nNothing yet.\n', row);
    const artifact = parseArtifact('x.md', prose);
    expect(artifact.tables[0]?.rows.map((r) => r.cells[0])).toEqual(['2026-01-01T00:00:00.000Z']);
    expect(prose).toContain('\n\nNothing yet.\n');
  });
});

describe('appendTableRow', () => {
  const cycle: [string, string][] = [
    ['Cycle', '3'],
    ['Type', 'critic'],
    ['Reviewer', '[cursor/gpt-5]'],
    ['Outcome', 'zero'],
    ['Link', 'reviews/cycle-3.json'],
  ];

  it('fills a table people wrote with other columns by name, and leaves the columns it lacks empty', () => {
    const text = '# Log\n\n## Review cycles\n\n| Round | Type | Outcome | Notes |\n| --- | --- | --- | --- |\n| 1 | self | zero | by hand |\n';
    const table = parseArtifact('x.md', appendTableRow(text, 'Review cycles', cycle)).tables[0];
    expect(table?.rows.map((r) => r.cells)).toEqual([
      ['1', 'self', 'zero', 'by hand'],
      ['3', 'critic', 'zero', '—'],
    ]);
  });

  it('creates the section with the given columns when the log has none', () => {
    const table = parseArtifact('x.md', appendTableRow('# Log\n', 'Review cycles', cycle)).tables.find((t) => t.section === 'Review cycles');
    expect(table?.header).toEqual(['Cycle', 'Type', 'Reviewer', 'Outcome', 'Link']);
    expect(table?.rows.map((r) => r.cells)).toEqual([['3', 'critic', '[cursor/gpt-5]', 'zero', 'reviews/cycle-3.json']]);
  });
});

describe('appendToSection', () => {
  it('adds a list item after the last one, before the blank lines and the next heading', () => {
    const text = '# Log\n\n## Learnings\n\n- first\n\n## Next\n';
    expect(appendToSection(text, 'Learnings', ['- second'])).toBe('# Log\n\n## Learnings\n\n- first\n- second\n\n## Next\n');
  });

  it('starts an empty section, a section before a heading with no blank line, and a missing one', () => {
    expect(appendToSection('# Log\n\n## Learnings\n## Next\n', 'Learnings', ['- one'])).toBe('# Log\n\n## Learnings\n\n- one\n\n## Next\n');
    expect(appendToSection('# Log\n\n## Learnings\n\nProse.\n', 'learnings', ['- one'])).toBe('# Log\n\n## Learnings\n\nProse.\n\n- one\n');
    expect(appendToSection('# Log\n', 'Review gaps', ['- none could run'])).toBe('# Log\n\n## Review gaps\n\n- none could run\n');
  });

  it('keeps every other line of the document', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,10}$/), { maxLength: 6 }), (paragraphs) => {
        const text = `# Log\n\n## Learnings\n\n${paragraphs.join('\n')}\n\n## After\n\nkept\n`;
        const out = appendToSection(text, 'Learnings', ['- added']);
        const filled = (doc: string) => doc.split('\n').filter((line) => line.trim() !== '');
        expect(filled(out).filter((line) => line !== '- added')).toEqual(filled(text));
        expect(filled(out).indexOf('- added')).toBe(filled(text).indexOf('## After'));
        expect(parseArtifact('x.md', out).sections.map((s) => s.title)).toEqual(['Log', 'Learnings', 'After']);
      }),
    );
  });
});
