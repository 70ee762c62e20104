import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../test-support/fuzz.js';
import { referenceFacts } from '../test-support/reference-facts.js';
import { markdownTree } from './markdown-tree.js';
import { extractFacts, parseArtifact } from './parse-artifact.js';
import type { Artifact } from './types.js';

// Lines as CommonMark counts them: \r\n, \r and \n each end one.
const linesOf = (text: string): string[] => text.split(/\r\n|\r|\n/);

// Fragments that exercise every parser path, glued with every kind of line ending (a list
// item's text followed by a line indented less than it among them).
const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('---', '# Title #', '## Security design', 'Setext', '===', '- [ ] task', '- [x] done', '* [~] partial', '1. [ ] ordered', '  - [X] nested', '```', '~~~', '| a | b |', '|---|---|', '| 1 | 2 |', '> quote', '<!-- comment', '-->', '<placeholder>', 'status: approved', 'phase: needs-review # a | b', 'a: &a [*a]', 'key: [', '- **term**: text', '    indented code', '#tag', '', '\t', 'TBD', '1.   item', '1.   item\n    <!-- note -->', '-    [ ] item\n    # not a heading', '> 1.   item\n>     - [ ] text') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);
const separator = fc.constantFrom('\n', '\n', '\r\n', '\r', ' ', '');
const markdownish = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(fragment, separator), { maxLength: 40 }))
  .map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.map(([text, sep]) => text + sep).join(''));
const frontMatterish = fc
  .tuple(fc.array(fc.tuple(fragment, separator), { maxLength: 8 }), markdownish)
  .map(([yaml, body]) => `---\n${yaml.map(([text, sep]) => text + sep).join('')}\n---\n${body}`);
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), markdownish, frontMatterish);

/** Every position the artifact reports, with what it belongs to. */
function positionsOf(artifact: Artifact): [string, { line?: number | undefined; column?: number | undefined }][] {
  return [
    ...artifact.diagnostics.map((d): [string, typeof d] => [`diagnostic ${d.ruleId}`, d]),
    ...artifact.sections.map((s): [string, typeof s.position] => [`section ${s.title}`, s.position]),
    ...artifact.sections.flatMap((s) => [...s.items, ...s.items.flatMap((i) => i.children)].map((i): [string, typeof i.position] => [`item ${i.text}`, i.position])),
    ...artifact.tasks.map((t): [string, typeof t.position] => [`task ${t.text}`, t.position]),
    ...artifact.tables.flatMap((t) => [[`table`, t.position] as [string, typeof t.position], ...t.rows.map((r): [string, typeof r.position] => ['row', r.position])]),
    ...Object.entries(artifact.frontMatter?.positions ?? {}).map(([key, p]): [string, typeof p] => [`front-matter ${key}`, p]),
  ];
}

describe('parseArtifact: properties', () => {
  it('never throws and never fails internally, on any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const artifact = parseArtifact('a.md', text);
        expect(artifact.diagnostics.filter((d) => d.ruleId === 'internal-error')).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('reads from the tree exactly what the reference extraction reads, on any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(JSON.stringify(extractFacts(text))).toBe(JSON.stringify(referenceFacts(text, markdownTree)));
      }),
      fuzzRuns(process.env, 500),
    );
  });

  it('places every position inside its document: 1 ≤ line ≤ line count, 1 ≤ column ≤ line length + 1', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const artifact = parseArtifact('a.md', text);
        const lines = linesOf(artifact.text);
        expect(artifact.lineCount).toBe(lines.length);
        for (const [what, { line, column }] of positionsOf(artifact)) {
          if (line === undefined) continue;
          const where = `${what} at ${line}:${column}`;
          expect(line, where).toBeGreaterThanOrEqual(1);
          expect(line, where).toBeLessThanOrEqual(lines.length);
          expect(column, where).toBeGreaterThanOrEqual(1);
          expect(column, where).toBeLessThanOrEqual((lines[line - 1] ?? '').length + 1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('produces front-matter data that serialises to JSON', () => {
    fc.assert(
      fc.property(frontMatterish, (text) => {
        const artifact = parseArtifact('a.md', text);
        expect(() => JSON.stringify(artifact)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
