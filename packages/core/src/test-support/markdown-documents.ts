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

// Lines the way specs are written, and the lines at the edges of what the reader reads: every
// container and leaf start at the indents that matter, lazy lines, underlines, fences closed at
// other indents, tables, comments, HTML-looking text.
const word = fc.constantFrom('review', 'Invoice', 'a', 'TBD', 'x2', 'état', '2024', '**AC-1**:', '`code`', '*em*', '[link](https://x.test)', '<describe it>', '<b>', '\\|', '|', ':', '—');
const prose = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
const indent = fc.constantFrom('', '', '', ' ', '  ', '  ', '   ', '    ', '     ', '      ');
const start = fc.constantFrom(
  '', '', '', '', '# ', '## ', '### ', '#', '####### ', '- ', '- ', '* ', '+ ', '1. ', '1. ', '2. ', '1) ', '10. ', '01. ', '- [ ] ', '- [x] ', '* [X] ', '- [~] ', '1. [ ] ',
  '> ', '>', '> > ', '- > ', '- # ', '- - ', '| ', '[x] ', '[ref]: ', '<!-- ', '-', '1.', '-    ', '-     ', '1.     ', '- \t', '\t',
);
const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(indent, start, prose).map(([i, s, p]) => i + s + p) },
  { weight: 3, arbitrary: fc.tuple(indent, fc.constantFrom('', '', '')).map(([i]) => i) },
  // Spaces at a line's end: dropped before a soft break, two or more a hard break.
  { weight: 2, arbitrary: fc.tuple(indent, prose, fc.constantFrom(' ', '  ', '   ', '\t', ' \t')).map(([i, p, s]) => i + p + s) },
  {
    weight: 4,
    arbitrary: fc.tuple(
      indent,
      fc.constantFrom(
        '```', '```ts', '~~~', '````', '``` x `y`', '---', '***', '___', '- - -', '* * *', '===', '--', '| a | b |', '|---|---|', '| --- | :-: |', 'a | b', '--|--', '| 1 | 2 |',
        '| x |', '|', '<!-- note -->', '<!--', '-->', 'text -->', '<div>', '</div>', '<details open>', '<a href="x">', '<boundary>: <control>', '<what is wrong, for whom>', '< 5 ms',
        '<?x ?>', '<!X>', '<!-->', '[r]: /u', '[a]', '\u00a0', '_Requirements: AC-1_', 'TBD', 'todo …', 'Tba', '| TBD | … |',
      ),
    ).map(([i, l]) => i + l),
  },
  { weight: 1, arbitrary: inlineText },
);
/** Documents of spec-shaped lines, and lines at the edges of what the simple block reader reads. */
export const specDocument = fc.array(line, { maxLength: 25 }).map((lines) => lines.join('\n'));

/**
 * The lines without those a reader declines at (`reads` is false), one at a time, until it reads
 * them all: long documents of what it reads, right beside what it does not. The line it declines
 * at is found by halving the lines read (a prefix may decline where the whole does not, as a
 * comment cut short; any line removed brings the search closer).
 */
function readable(lines: readonly string[], reads: (text: string) => boolean): string {
  const kept = [...lines];
  for (let tries = 0; tries < 40 && !reads(kept.join('\n')); tries += 1) {
    let [read, declined] = [0, kept.length];
    while (declined - read > 1) {
      const middle = (read + declined) >> 1;
      if (reads(kept.slice(0, middle).join('\n'))) read = middle;
      else declined = middle;
    }
    kept.splice(declined - 1, 1);
  }
  return kept.join('\n');
}

/** Long documents of spec-shaped lines that `reads` reads, next to what it declines. */
export function readableDocument(reads: (text: string) => boolean): fc.Arbitrary<string> {
  return fc.array(line, { minLength: 10, maxLength: 40 }).map((lines) => readable(lines, reads));
}
