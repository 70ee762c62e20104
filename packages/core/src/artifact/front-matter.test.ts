import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatFrontMatter, frontMatterFromYaml } from './front-matter.js';
import { parseArtifact } from './parse-artifact.js';

// remark-lint style: each case is a document and the `line:col ruleId` it must produce.
const found = (text: string): string[] => parseArtifact('a.md', text).diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`);
const data = (text: string): Readonly<Record<string, unknown>> | undefined => parseArtifact('a.md', text).frontMatter?.data;

describe('front-matter: ok', () => {
  it('reads a plain block', () => {
    const text = '---\nstatus: approved\nowner: ann\n---\n# Title\n';
    expect(found(text)).toEqual([]);
    expect(data(text)).toEqual({ status: 'approved', owner: 'ann' });
  });

  it('is not defeated by a byte-order mark', () => {
    expect(data('\uFEFF---\nstatus: approved\n---\n# T\n')).toEqual({ status: 'approved' });
  });

  it('is not defeated by CRLF line endings, with or without a BOM', () => {
    expect(data('---\r\nstatus: approved\r\n---\r\n# T\r\n')).toEqual({ status: 'approved' });
    expect(data('\uFEFF---\r\nstatus: approved\r\n---\r\n')).toEqual({ status: 'approved' });
  });

  it('points each key at its value, counting the opening `---` as line 1', () => {
    const artifact = parseArtifact('a.md', '---\ntitle: x\nstatus:   draft\n---\n');
    expect(artifact.frontMatter?.positions['status']).toEqual({ line: 3, column: 11 });
  });

  it('treats an empty block as an empty mapping', () => {
    expect(found('---\n---\n# T\n')).toEqual([]);
    expect(data('---\n---\n# T\n')).toEqual({});
  });

  it('leaves a document without a leading `---` without front-matter and without findings', () => {
    const artifact = parseArtifact('a.md', '# T\n\n---\n\nstatus: approved\n');
    expect(artifact.frontMatter).toBeUndefined();
    expect(artifact.diagnostics).toEqual([]);
  });
});

describe('front-matter: not ok', () => {
  it('reports malformed YAML at its line in the document and drops the front-matter', () => {
    const text = '---\ntitle: ok\nstatus: [unclosed\n---\n# T\n';
    expect(found(text).map((f) => f.replace(/:\d+ /, ' '))).toEqual(['3 front-matter-invalid']);
    expect(parseArtifact('a.md', text).frontMatter).toBeUndefined();
  });

  // yaml's LineCounter loses line breaks while it recovers from an error; positions must not.
  it('puts every error of a broken block on a line that holds it', () => {
    expect(found('---\n- [ ] task\nword\nkey: [\n\n---\n')).toEqual(['2:7', '3:1', '4:4', '4:6', '5:1'].map((p) => `${p} front-matter-invalid`));
  });

  it('reports malformed YAML after a BOM and CRLF at the same line', () => {
    expect(found('\uFEFF---\r\ntitle: ok\r\nstatus: [unclosed\r\n---\r\n').map((f) => f.split(':')[0])).toEqual(['3']);
  });

  it('reports a list where a mapping belongs', () => {
    expect(found('---\n- a\n- b\n---\n')).toEqual(['2:1 front-matter-invalid']);
  });

  it('reports a bare scalar where a mapping belongs', () => {
    expect(found('---\njust text\n---\n')).toEqual(['2:1 front-matter-invalid']);
  });

  it('reports a block opened on line 1 and never closed', () => {
    const artifact = parseArtifact('a.md', '---\nstatus: approved\n# T\n');
    expect(artifact.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`)).toEqual(['1:1 front-matter-invalid']);
    expect(artifact.frontMatter).toBeUndefined();
  });

  it('reports an unclosed block whatever ends its first line: CR, CRLF or the end of the file', () => {
    for (const text of ['---\rstatus: approved\r', '---\r\nstatus: approved\r\n', '---']) expect(found(text)).toEqual(['1:1 front-matter-invalid']);
  });

  it('reports a duplicate key at the second occurrence', () => {
    expect(found('---\nstatus: draft\nstatus: approved\n---\n')).toEqual(['3:1 front-matter-invalid']);
  });

  it('reports the template comment that enumerates choices as template residue at the value', () => {
    const artifact = parseArtifact('a.md', '---\ntitle: x\nphase: needs-review # not-started | brainstorming | design\n---\n');
    expect(artifact.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`)).toEqual(['3:8 template-residue']);
    expect(artifact.frontMatter?.data['phase']).toBe('needs-review');
  });

  it('does not call an ordinary comment template residue', () => {
    expect(found('---\nphase: design # moved here after review\n---\n')).toEqual([]);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      const previous = String.fromCharCode('a'.charCodeAt(0) + i);
      levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(', ')}]`);
    }
    const artifact = parseArtifact('a.md', `---\n${levels.join('\n')}\n---\n`);
    expect(artifact.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`)).toEqual(['1:1 front-matter-invalid']);
    expect(artifact.frontMatter).toBeUndefined();
  });

  it('refuses an anchor that contains its own alias (a cycle no JSON report can hold)', () => {
    const artifact = parseArtifact('a.md', '---\nstatus: &a [*a]\n---\n');
    expect(artifact.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`)).toEqual(['1:1 front-matter-invalid']);
    expect(artifact.frontMatter).toBeUndefined();
  });
});

describe('front-matter: the flat fast path', () => {
  // Keys, separators and values chosen to sit on each edge of the fast path: words YAML reads
  // as booleans, nulls, numbers or dates, indicators, comments, quotes, escapes and odd spaces.
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('status', 'phase', 'owner', 'a', 'A-b_9', 'constructor') },
    { weight: 1, arbitrary: fc.constantFrom('true', 'Null', 'no', '9a', '_x', '__proto__', 'key ', '', '-a', 'é') },
  );
  const separator = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(': ', ':  ') }, { weight: 1, arbitrary: fc.constantFrom(':', ':\t', ': \t', ' : ') });
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('approved', 'needs-review', 'yes', 'No', 'on', 'off', 'y', 'n', 'NaN', 'Infinity', 'a b', 'a  b', 'a ', 'a (b) c+d/e.f', 'v1.2', '2026-03-04', '1999-12-31') },
    { weight: 2, arbitrary: fc.constantFrom('true', 'True', 'TRUE', 'false', 'null', 'NULL', 'Null', '~', '.inf', '.nan', '0x1F', '1e3', '12', '1.5', '2024-01-01', '2024-1-01', '20240101', '2024-01-01T10:00', '2024-01-01 x', '+1', '-1', 'a #c', 'a#b', 'a: b', 'a:b', 'http://x.test/a', "it's", '"q"', "'q'", 'a\\b', 'a,b', '[a]', '{a}', 'a]', 'a}', '!tag', '&a', '*a', '|', '>', '-', '- a', '? a', '%a', '@a', '`a`', 'a\t', '') },
    // A letter, then anything the fast path allows and some it does not.
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('a', 'Z', 'n', 't', '2', '20'), fc.string({ unit: fc.constantFrom(...'aZ09 _./()+-:#\'"!&*,[]{}|>%@`~\\'), maxLength: 8 })).map(([first, rest]) => first + rest) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const line = fc.oneof({ weight: 12, arbitrary: fc.tuple(key, separator, value).map(([k, s, v]) => k + s + v) }, { weight: 1, arbitrary: fc.constantFrom('', '# c', '  x: y', '---', '...', '- a') });
  const yaml = fc.array(line, { minLength: 1, maxLength: 5 }).map((lines) => lines.join('\n'));

  it('gives exactly what the YAML library gives wherever it reads a block', () => {
    let taken = 0;
    fc.assert(
      fc.property(yaml, (text) => {
        const source = { yaml: text, firstLine: 2, position: { line: 1, column: 1 } };
        const fast = flatFrontMatter(source);
        if (fast === undefined) return;
        taken += 1;
        const slow = frontMatterFromYaml('', source);
        expect(fast, text).toEqual(slow);
        expect(JSON.stringify(fast), text).toBe(JSON.stringify(slow));
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2000) },
    );
    // The generator keeps the fast path busy.
    expect(taken).toBeGreaterThan(50);
  });

  it('leaves to the library every block with a comment, a quote, a number, a boolean or a repeated key', () => {
    for (const text of ['a: b # c', 'a: "b"', 'a: 12', 'a: true', 'a: null', 'a: b\na: c', 'a: b\n  c', 'a: b\r\nc: d', 'a:', 'a: b: c'])
      expect(flatFrontMatter({ yaml: text, firstLine: 2, position: { line: 1, column: 1 } }), text).toBeUndefined();
  });
});
