import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../test-support/fuzz.js';
import { markdownCorpus } from '../../../../test-fixtures/repository-markdown.js';
import { markdownDocument, readableDocument, specDocument } from '../test-support/markdown-documents.js';
import { markdownItTree, simpleMarkdownTree } from './markdown-tree.js';

// The simple block reader must build exactly the tree markdown-it's tokens give, for every
// document it reads at all; the tests against remark then hold for it too.
function expectSameTree(text: string): boolean {
  const simple = simpleMarkdownTree(text);
  if (simple === undefined) return false;
  expect(simple, JSON.stringify(text)).toEqual(markdownItTree(text));
  return true;
}

describe('the simple block reader', () => {
  it('builds the tree markdown-it builds, for every generated document it reads', () => {
    let [documents, read] = [0, 0];
    fc.assert(
      fc.property(fc.oneof({ weight: 3, arbitrary: specDocument }, { weight: 1, arbitrary: markdownDocument }), (text) => {
        documents += 1;
        if (expectSameTree(text)) read += 1;
      }),
      fuzzRuns(process.env, 2000),
    );
    // A reader that declined everything would pass the comparison: it must read a fair share.
    expect(read).toBeGreaterThan(documents / 4);
  });

  it('builds the tree markdown-it builds, for long documents of what it reads', () => {
    let [documents, long] = [0, 0];
    fc.assert(
      fc.property(readableDocument((text) => simpleMarkdownTree(text) !== undefined), (text) => {
        documents += 1;
        if (text.split('\n').length >= 10) long += 1;
        expectSameTree(text);
      }),
      fuzzRuns(process.env, 150),
    );
    expect(long).toBeGreaterThan(documents / 2);
  });

  it('reads the repository\'s Markdown and the bench\'s work items, as markdown-it does', () => {
    const texts = markdownCorpus().map((text) => text.replace(/^\uFEFF/, ''));
    const read = texts.filter(expectSameTree).length;
    expect(read).toBeGreaterThan(texts.length * 0.95);
  });

  it('reads the shapes specs are written in', () => {
    const shapes = [
      '# Title\n\nText over\ntwo lines.\n\n## Section\n\n- item\n  - nested\n- [x] done\n- [ ] open\n',
      // A line indented less than its nested item: a lazy continuation line of that item's text.
      '- [x] **1.1** Task\n  - [x] Step\n  _Requirements: AC-1_\n- [ ] **1.2** Next\n',
      '1. one\n2. two\n10. ten\n',
      '| a | b |\n|---|:-:|\n| 1 | 2 |\nrow without pipes\n\nafter\n',
      'Text\n| a | b |\n| - | - |\n',
      '```ts\nconst x = 1;\n\n```\n\n~~~\n```\n~~~\n',
      '- item\n\n  ```\n  code\n  ```\n\n  More text.\n',
      '<!-- guidance\nover lines -->\n\n<boundary>: <control>\n\n<what is wrong, and for whom>\n',
      '> Guidance\n> over lines\n>\n> and more\n\nText\n',
      'Setext\n===\n\nOther\n---\n\n***\n- - -\n',
      '- a\n---\n',
      '---\nstatus: draft\n---\n\n# After front-matter\n',
    ];
    for (const text of shapes) expect(expectSameTree(text), JSON.stringify(text)).toBe(true);
  });

  it('leaves to markdown-it what it does not read', () => {
    const shapes = [
      '    indented code\n',
      '-     code in an item\n',
      '[ref]: /url\n\n[ref]\n',
      '<div>\nblock\n</div>\n',
      '<describe the boundary>\n',
      '- \n  text under an empty item\n',
      'para\n01. item\n',
      '- a | b\n  --|--\n',
      '> - item in a quote\n',
      '- > quote in an item\n',
      '\tcode after a tab\n',
      '- item\n\tmore\n',
      '<!-- never closed\n',
      '```x`y\n',
    ];
    for (const text of shapes) {
      expect(simpleMarkdownTree(text), JSON.stringify(text)).toBeUndefined();
      expect(markdownItTree(text).root.children.length, JSON.stringify(text)).toBeGreaterThan(0);
    }
  });
});
