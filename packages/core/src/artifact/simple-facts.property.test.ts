import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownCorpus } from '../../../../test-fixtures/repository-markdown.js';
import { fuzzRuns } from '../test-support/fuzz.js';
import { markdownDocument, readableDocument, specDocument } from '../test-support/markdown-documents.js';
import { expectSameFacts } from '../test-support/remark-comparison.js';
import { markdownTree } from './markdown-tree.js';
import { extractFacts } from './parse-artifact.js';
import { simpleFacts } from './simple-facts.js';

// The facts read straight from a simple document's blocks must be exactly, down to the order of
// keys (cached facts are their JSON), those extracted from its tree; and those remark's reading
// gives.
const fromTree = (text: string): string => JSON.stringify(extractFacts(text, (source) => markdownTree(source)));

function expectSameFactsAsTree(text: string): boolean {
  if (simpleFacts(text.replace(/^\uFEFF/, '')) === undefined) return false;
  expect(JSON.stringify(extractFacts(text)), JSON.stringify(text)).toBe(fromTree(text));
  return true;
}

// Documents without template prompts, which leave the facts to the tree's walk.
const withoutPrompts = (text: string): string => text.replace(/<describe it>/g, 'describe it');

describe('facts read straight from a simple document', () => {
  it('are the facts of its tree, for every generated document the reader reads', () => {
    let [documents, read] = [0, 0];
    fc.assert(
      fc.property(fc.oneof({ weight: 3, arbitrary: specDocument.map(withoutPrompts) }, { weight: 1, arbitrary: markdownDocument }), (text) => {
        documents += 1;
        if (expectSameFactsAsTree(text)) read += 1;
      }),
      fuzzRuns(process.env, 2000),
    );
    expect(read).toBeGreaterThan(documents / 5);
  });

  it('are the facts of its tree and of remark\'s reading, for long documents of what it reads', () => {
    let [documents, long] = [0, 0];
    fc.assert(
      fc.property(readableDocument((text) => simpleFacts(text) !== undefined), (text) => {
        documents += 1;
        if (text.split('\n').length >= 10) long += 1;
        expect(expectSameFactsAsTree(text)).toBe(true);
        expectSameFacts(text);
      }),
      fuzzRuns(process.env, 150),
    );
    expect(long).toBeGreaterThan(documents / 2);
  });

  it('are the facts of the tree of the repository\'s Markdown and the bench\'s work items', () => {
    const texts = markdownCorpus();
    const read = texts.filter(expectSameFactsAsTree).length;
    // Most files of the repository hold a `<…>` somewhere, whose prompts only the tree can place.
    expect(read).toBeGreaterThan(texts.length / 3);
  });

  it('are the facts of its tree for the shapes where the walks differ', () => {
    const shapes = [
      // A table takes the title of the heading before it, also one inside a list item; a statement, of the last one at the root.
      '# Top\n\n- item\n  ## Inside\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter.\n',
      // A list item whose first block is a heading gives an entry with no text, and no task.
      '# Top\n\n- [ ] task\n  ---\n- two\n  - nested\n    - deeper\n',
      // A section's items carry the subsection they sit under; an empty section stays empty.
      '# A\n\n## B\n\n- one\n\n## C\n\n<!-- guidance -->\n\n# D\n\n> quoted\n',
      // Placeholders make no content, whatever letter they open with; nor does a table's header.
      '## A\n\nTBD\n\n## B\n\ntodo …\n\n## C\n\nTba\n\n## D\n\n| risk | mitigation |\n|---|---|\n\n## E\n\n| a |\n|---|\n| TBD |\n\n## F\n\nThe text.\n',
    ];
    for (const text of shapes) expect(expectSameFactsAsTree(text), JSON.stringify(text)).toBe(true);
  });

  it('are each the tree\'s whatever order they are read in, each kind read when first asked for', () => {
    fc.assert(
      fc.property(readableDocument((text) => simpleFacts(text) !== undefined), fc.shuffledSubarray(['statements', 'tables', 'tasks', 'sections'] as const, { minLength: 4 }), (text, order) => {
        const facts = simpleFacts(text) as NonNullable<ReturnType<typeof simpleFacts>>;
        const tree = JSON.parse(fromTree(text)) as Record<string, unknown>;
        for (const kind of order) expect(JSON.parse(JSON.stringify(facts[kind])), `${kind} of ${JSON.stringify(text)}`).toEqual(tree[kind]);
      }),
      fuzzRuns(process.env, 100),
    );
  });

  it('read now the inline content that could fail later: a failure is a diagnostic, never an exception from a fact', () => {
    // Nested strong spans a few hundred deep read later; tens of thousands (longer content) are read at once.
    const shallow = `# A\n\n${'**a '.repeat(240)}x${' a**'.repeat(240)}\n`;
    expect(expectSameFactsAsTree(shallow)).toBe(true);
    const deep = extractFacts(`# A\n\n${'*'.repeat(100_000)}deep${'*'.repeat(100_000)}\n`);
    expect(deep.diagnostics.map((d) => d.ruleId)).toEqual(['internal-error']);
    expect(() => [deep.sections, deep.tasks, deep.tables, deep.statements]).not.toThrow();
  });

  it('are left to the tree where a template prompt may stand', () => {
    expect(simpleFacts('# Problem\n\n<what is wrong, and for whom>\n')).toBeUndefined();
    expect(simpleFacts('# Problem\n\nSomething is wrong.\n')).toBeDefined();
  });
});
