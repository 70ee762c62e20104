import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Nodes } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { fuzzRuns } from '../test-support/fuzz.js';
import { repositoryMarkdownFiles } from '../../../../test-fixtures/repository-markdown.js';
import { markdownDocument } from '../test-support/markdown-documents.js';
import { expectSameFacts } from '../test-support/remark-comparison.js';
import { referenceTree } from '../test-support/reference-tree.js';
import { markdownTree } from './markdown-tree.js';

/**
 * A tree's blocks as nested arrays: each node's type, its start line where the fast tree keeps
 * one, and the plain text of a paragraph, heading, table cell or leaf block.
 */
function blocks(node: Nodes): unknown[] {
  const line = ['listItem', 'paragraph', 'heading', 'html', 'table', 'tableRow'].includes(node.type) ? [node.position?.start.line] : [];
  if (!('children' in node) || ['paragraph', 'heading', 'tableCell'].includes(node.type)) return [node.type, ...line, toString(node)];
  return [node.type, ...line, (node.children as Nodes[]).map(blocks)];
}

function expectSameBlocks(text: string): void {
  expect(blocks(markdownTree(text).root), JSON.stringify(text)).toEqual(blocks(referenceTree(text).root));
  expectSameFacts(text);
}

// A line that would start a block where it stood, each kind of block that can interrupt a
// paragraph (and a few that cannot): fences, ATX and setext headings, block quotes, thematic
// breaks, list items, HTML blocks of kinds 1 to 7, a table, a definition.
const BLOCK_STARTS = [
  '```', '~~~', '# h', '===', '> q', '---', '***', '- x', '1. x', '2) x', '<script>', '<!-- note -->', '<?x ?>', '<!X >', '<![CDATA[ x ]]>', '<div>', '<a>',
  'a | b\n--|--', '[r]: /u',
];

describe('a line indented less than its list item\'s text, as CommonMark reads it', () => {
  // Under `1.   word` the item's text starts at column 6: a line indented 4 is not in the item,
  // and where it would stand (the document) it is indented code, which cannot interrupt a
  // paragraph. It is a lazy continuation line: paragraph text, whatever it holds.
  it('continues the paragraph when indented four or more past the containers it still belongs to', () => {
    const shapes = [
      (line: string) => `1.   word\n    ${line}\n`,
      (line: string) => `-    word\n    ${line}\n`,
      (line: string) => `  1.   word\n      ${line}\n`,
      (line: string) => `1.   word\n\t${line}\n`,
      (line: string) => `1.   word\n \t${line}\n`,
      (line: string) => `1.   word\n  \t${line}\n`,
      (line: string) => `1.\t  word\n    ${line}\n`,
      (line: string) => `1.   word\n     more\n    ${line}\n`,
      (line: string) => `- a\n  1.   word\n      ${line}\n`,
      (line: string) => `1.   a\n     -   word\n         ${line}\n`,
      (line: string) => `> 1.   word\n>     ${line}\n`,
      (line: string) => `> 1.   word\n    ${line}\n`,
      (line: string) => `> - a\n>   1.   word\n>       ${line}\n`,
      (line: string) => `- > 1.   word\n      ${line}\n`,
      (line: string) => `1.   > word\n    ${line}\n`,
      (line: string) => `- a\n  1.   > word\n      ${line}\n`,
      (line: string) => `1.   [r]: /u\n    ${line}\n`,
      (line: string) => `1.   word\n    ${line}\n     ===\n`,
    ];
    for (const shape of shapes) for (const start of BLOCK_STARTS) expectSameBlocks(shape(start.replace('\n', '\n    ')));
  });

  it('starts a block in the container it belongs to when indented less than four past it', () => {
    const shapes = [
      (line: string) => `1.   word\n   ${line}\n`,
      (line: string) => `- a\n  1.   word\n     ${line}\n`,
      (line: string) => `1.   a\n     -   word\n        ${line}\n`,
      (line: string) => `> 1.   word\n>    ${line}\n`,
      (line: string) => `- > word\n    ${line}\n`,
      (line: string) => `- a\n  1.   word\n \t${line}\n`,
      (line: string) => `- a\n   - >word\n    ${line}\n`,
      (line: string) => `- a\n  1.   > word\n     ${line}\n`,
    ];
    // micromark defect: a lone tag line (`<a>`, kind 7) there starts an HTML block in the list
    // item; it cannot interrupt a paragraph, and the fast tree reads it as CommonMark does.
    for (const shape of shapes) for (const start of BLOCK_STARTS.filter((line) => line !== '<a>')) expectSameBlocks(shape(start));
  });

  it('reads a definition on a continuation line, however indented, as another definition', () => {
    for (const text of ['[r]: /u\n    [s]: /v\n', '- [r]: /u\n      [s]: /v\n      text\n', '1.   [r]: /u\n   [s]:\n   /v "t"\n', '> [r]: /u\n[s]: /v\n---\n']) expectSameBlocks(text);
  });

  it('reads no table header on the line right after a table that the line leaves the container of', () => {
    const tables = ['> a | b\n> --|--\n', '- a | b\n  --|--\n', '- a\n  b | c\n  --|--\n  d\n', '> - a | b\n>   --|--\n>', '- > a | b\n  > --|--\n  ', '> > a | b\n> > --|--\n>'];
    for (const table of tables) for (const next of ['c | d\n--|--\n', ' c | d\n --|--\ne | f\n', '  c | d\n  --|--\n', '\nc | d\n--|--\n']) expectSameBlocks(table + next);
    // A line that opens a container of its own can hold a table.
    for (const text of ['- a | b\n  --|--\n- c | d\n  --|--\n', '- a | b\n  --|--\n> c | d\n> --|--\n', '> a | b\n> --|--\n> > c | d\n> > --|--\n']) expectSameBlocks(text);
  });

  it('reads a lazy line over a delimiter row of its container as the header of a table in that container', () => {
    const containers = ['- a\n', '1. [ ] a\n', '> a\n', '- > a\n', '> - a\n', '- a\n  - b\n', '- a\n\n  b\n', '- [r]: /u\n', '> [r]: /u\n'];
    const indent = (container: string) => (container.startsWith('>') ? `>${' '.repeat(container.startsWith('> -') ? 3 : 1)}` : container.startsWith('- >') ? '  > ' : container.startsWith('1.') ? '   ' : container.includes('  - b') ? '    ' : '  ');
    for (const container of containers) {
      const inside = indent(container);
      // The header in the container; the delimiter row lazy too (paragraph text); body rows, a lazy one ending the table.
      for (const rest of [`c | d\n${inside}--|--\n`, 'c | d\n--|--\n', `c\n${inside}|-\n${inside}e\nf\n`, `c | d\n${inside.replace(/ {2}$/, '\t')}--|--\n`]) expectSameBlocks(container + rest);
    }
  });
});

describe('the fast markdown tree reads what remark reads', () => {
  it('on every markdown file of the repository (docs, fixtures, READMEs)', () => {
    const files = repositoryMarkdownFiles();
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) expectSameFacts(readFileSync(file, 'utf8'));
  });

  // Lines whose label fails are not tried as definitions: an escape or a line ending inside it must not fool that test.
  it('ends a parenthesised title at its first `)`, whatever `(` it holds, in a definition and a link', () => {
    const titles = ['(a(b)', '(a\\(b)', '(a(b(c)', '(\n![i](u.png)', '(a\n(b)', '(a(b))', '(a(b) c'];
    for (const title of titles) for (const shape of ['[r]: /u ', '[r]: /u\n', '- [r]: /u\n  ', '> [r]: /u\n> ']) expectSameBlocks(`${shape}${title}\n[r]\n`);
    for (const title of titles) expectSameBlocks(`[a](/u ${title}) and ![b](/v ${title})\n`);
  });

  it('reads a bracketed line as a definition exactly where its label can end in a colon', () => {
    const labels = ['[a]: /u', '[a\\]]: /u', '[a\\[b]: /u', '[a[b]: /u', '[a] : /u', '[a]', '[a]b: /u', '[a\nb]: /u', '[a\\\nb]: /u', '[a]:\n/u', '[ ] task', '[x]: /u "t"'];
    for (const label of labels) for (const shape of ['', '- ', '> ', 'text\n\n']) expectSameBlocks(`${shape}${label}\n[a]\n`);
  });

  it('on generated markdown: every block and inline construct, nested, with any line ending', () => {
    const outcomes = { compared: 0, skipped: 0 };
    fc.assert(fc.property(markdownDocument, (text) => void (outcomes[expectSameFacts(text)] += 1)), {
      ...fuzzRuns(process.env, 1000),
      // Found by earlier runs: a prompt in what micromark, past an unclosed front-matter line, reads
      // as a code span; a header row whose closing pipe follows an escaped backslash; a header cell of
      // a no-break space alone; a shortcut reference before a parenthesis that opens nothing; a
      // header row that reads as a link definition; a box after an empty list item, where remark fails;
      // a comment on a line indented less than its list item's text, where it is paragraph text; a
      // list item after a block quote in a list item, on a line that is in neither; a parenthesised
      // title holding a `(`, on the line after a definition; a task check alone on its line before
      // a lone tag line, past an unclosed front-matter line; a prompt after a code span that runs
      // over a `\r\n` and holds the same prompt; emphasis runs left between a matched pair, which pair
      // among themselves; a shortcut reference before a parenthesis that opens no link and a bracket;
      // indented code after an empty list item and two blank lines, then a list item numbered 2;
      // a tag whose only space is a no-break space, which CommonMark reads as text; a box after an
      // empty list item and a definition, where remark fails; a declaration after a processing
      // instruction that never ends, which markdown-it then stopped looking for; a code span in a
      // task that closes on a lazy line, where micromark keeps the line ending; a lazy line in a task
      // over a delimiter row indented with a tab, the header of a table in the task.
      examples: [
        ['---\n`<describe it>\n- # `code`\n'],
        ['\\\\|\n--- | ---\n'],
        ['\u00a0|word\n--- | ---\n'],
        ['[ref]: http://r.test\n[ref](\n'],
        ['[ref]: http://r.test\n![ref]( \n'],
        ['[x]:`a|b`\n| --- | :-: |\n'],
        ['1.\n[ ]\nword\n'],
        ['1.   word\n    <!-- note -->\n'],
        ['- a\n  1.   word\n   - >word\n    - [x] \n'],
        ['[ref]: /u\n(\n![alt *x*](i.png)\n'],
        ['---\n1. [ ] \n<describe it>\n'],
        ['`\nword\r\n<describe it>` spaced `<describe it>\n'],
        ['1.   word\n    ```**strong****strong******both***\n'],
        ['**a****b******c***\n'],
        ['[ref]: http://r.test\n[ref](![link](http://x.test "t")\n'],
        ['[ref]: /u\n[y]: /v\n\n[ref](x y[y] and ![ref](x y[y]\n'],
        ['10. \n\n\n    - [x] \n  2)  word\n   ```\n'],
        ['0<C\u00a0>\n'],
        ['1.\n[ref]: http://r.test\n[ ]\n####### \n'],
        ['- a\n  1.   wordé<!-- note -->[ ]`code`]<?\n      <!X**Term**: text>\n'],
        ['> - [ ] `` a`b ```code`\n `` a`b ``\n'],
        ['  - [ ] \n$\n\t|-\n'],
      ],
    });
    // The documents set aside for micromark's defects stay a small share.
    expect(outcomes.skipped).toBeLessThan(outcomes.compared / 20);
  });
});
