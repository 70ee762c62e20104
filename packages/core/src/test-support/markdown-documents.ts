import fc from 'fast-check';

// Inline pieces: every construct that changes a node's type or its plain text.
const inline = fc.constantFrom(
  'word', 'TBD', 'todo', '…', '<describe it>', '<b>bold</b>', '<!-- note -->', '*em*', '_em_', '**strong**', '__strong__', '***both***',
  '`code`', '`` a`b ``', '` spaced `', '[link](http://x.test "t")', '[link](/u (t(u))', '[ref]', '[ref][]', '![alt *x*](i.png)', '<http://a.test/%20b>', '<me@x.test>',
  '\\*', '\\[x]', '&amp;', '&#10;', '&NewLine;', '&bogus;', 'a: b', '**Term**: text', '`Term`: text', '\\', '  ', '\t', '|', '\\|', '`a|b`',
  '[x]', '[ ]', '[~]', '[', ']', '*', '_', '~~strike~~', ':', '#', '<', '>', '!', '"', "'", '\u00a0', 'é', '😀',
);
export const inlineText = fc.array(fc.oneof({ weight: 5, arbitrary: inline }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 6 }).map((parts) => parts.join(''));
// Line starts: every container and leaf block, at every indentation that matters.
const prefix = fc.constantFrom(
  '', '', '', ' ', '  ', '   ', '    ', '\t', '# ', '## ', '###### ', '####### ', '> ', '>', '> > ', '- ', '* ', '+ ', '1. ', '2) ', '10. ', '- [ ] ', '- [x] ',
  '- [X]\t', '* [~] ', '1. [ ] ', '  - [ ] ', '    - [x] ', '> - [ ] ', '- > ', '- - ', '- # ', '| ', '[ref]: http://r.test\n', '```\n', '~~~\n', '<div>\n', '<!--\n',
);
// A list item whose text starts past the marker's usual column, then a line indented less than
// that text, about four columns past the containers it still belongs to, that could start a
// block where it stands. Each opening comes with the indents that matter after it.
const ITEMS_AND_INDENTS: readonly (readonly [string, readonly string[]])[] = [
  ['1.   ', ['   ', '    ', '\t', ' \t', '  \t']],
  ['-    ', ['   ', '    ', '\t']],
  ['  2)  ', ['   ', '    ', '     ', '\t ']],
  ['1.\t  ', ['   ', '    ', '     ']],
  ['- a\n  1.   ', ['   ', '     ', '      ', '  \t', '\t  ']],
  ['> 1.   ', ['>   ', '>    ', '>     ', '>\t', '    ']],
  ['> - a\n>   -   ', ['>    ', '>      ', '>       ']],
  ['- > 1.   ', ['    ', '      ', '  > ']],
];
const underIndented = fc
  .constantFrom(...ITEMS_AND_INDENTS)
  .chain(([item, indents]) => fc.tuple(fc.constant(item), inlineText, fc.constantFrom(...indents)))
  .chain(([item, text, indent]) =>
    fc
      .tuple(
        fc.constantFrom('```', '~~~', '# ', '> ', '---', '***', '===', '- ', '1. ', '<!-- ', '<div>', '<script>', '<?', '<!X', '<![CDATA[', '| a |\n| - |', '[ref]: /u '),
        inlineText,
      )
      .map(([start, rest]) => `${item}word${text}\n${indent}${start}${rest}`),
  );
const lineText = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(prefix, inlineText).map(([p, t]) => p + t) },
  { weight: 1, arbitrary: underIndented },
  { weight: 2, arbitrary: fc.constantFrom('', '', '===', '---', '***', '```', '~~~', '-->', '</div>', '| a | b |', '|---|---|', '| --- | :-: |', 'a | b', '--- | ---', '| 1 | 2 | 3 |', '| 1 |', '|   |   |', '| <x> | TBD |', '- ', '1.', '>', '[ref]: /u', '[ref]: /u (a(b)', '(a(b)', '> a | b\n> --|--', '- a | b\n  --|--') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
/** A generated document: lines of every block and inline construct, nested, with any line ending, maybe after front-matter. */
export const markdownDocument = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineText, eol), { maxLength: 30 }))
  .map(([front, lines]) => (front ? '---\nstatus: draft\n---\n' : '') + lines.map(([line, end]) => line + end).join(''));
