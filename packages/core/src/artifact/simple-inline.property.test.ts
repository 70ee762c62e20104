import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import type { Token } from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { repositoryMarkdownFiles } from '../../../../test-fixtures/repository-markdown.js';
import { phrasingOf } from './markdown-tree.js';
import { markdownReader } from './micromark-block.js';
import { simpleInlineTokens } from './simple-inline.js';

const md = markdownReader();

/** The phrasing nodes of inline content as the full inline parser reads it (line 7 of a file). */
function parsed(content: string): unknown {
  const tokens: Token[] = [];
  md.inline.parse(content, md, {}, tokens);
  return phrasingOf(tokens, { line: 7, breaks: 0 });
}

/** The same from the simple scanner, or undefined where it leaves the content to the parser. */
function scanned(content: string): unknown {
  const tokens = simpleInlineTokens(content);
  return tokens && phrasingOf(tokens, { line: 7, breaks: 0 });
}

// Pieces rich in what the scanner judges: emphasis runs next to spaces, punctuation, letters,
// digits, non-ASCII punctuation and symbols, emoji; code spans with and without padding; links
// and stray brackets and parentheses; line endings after one, two or three spaces.
const piece = fc.constantFrom(
  'a', 'word', 'Z', '7', ' ', '  ', '   ', '\n', ' \n', '  \n', '   \n', '\n  ', '*', '**', '***', '_', '__', '___',
  '`', '` `', '`  `', '` a `', '`a`', '`a `', '``', '[', ']', '(', ')', '](', '[w](https://x.test/w)', '[*w*](#a)', '[](x)',
  '[a\nb](x)', '](x y)', '](<x>)', '](a(b))', '](é)', ')(', '.', ',', ':', '!', '![', '?', '-', '"', "'", '&', '&amp;', '&#35;',
  '& ', '#', '<', '\\', '\t', '~', '|', '\u00a0', 'é', '—', '“', '”', '¿', '€', '©', '😀', '👍🏽', '\u3000',
);
const content = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

// The shapes of real prose: words, simple syntax and line endings, and now and then a stray mark.
const word = fc.constantFrom('review', 'Invoice', 'a', 'snake_case', 'x2', 'état', '2024', 'v1.2', 'it’s', 'R&D', 'A & B');
const prose = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: word },
      { weight: 3, arbitrary: word.map((w) => `*${w}*`) },
      { weight: 3, arbitrary: word.map((w) => `**${w}**`) },
      { weight: 2, arbitrary: word.map((w) => `_${w}_`) },
      { weight: 1, arbitrary: word.map((w) => `__${w}__`) },
      { weight: 3, arbitrary: word.map((w) => `\`${w}\``) },
      { weight: 2, arbitrary: word.map((w) => `[${w}](https://example.test/${encodeURIComponent(w)})`) },
      { weight: 1, arbitrary: word.map((w) => `[*${w}* text](#${encodeURIComponent(w)})`) },
      { weight: 1, arbitrary: fc.constantFrom('.', ',', ':', '(', ')', '—', '!', '?', '*', '_', '`', '[', ']', '😀') },
    ),
    { maxLength: 10 },
  )
  .chain((words) => fc.array(fc.constantFrom(' ', ' ', ' ', '', '\n', '  \n', ' \n  '), { minLength: words.length, maxLength: words.length }).map((gaps) => words.map((w, i) => w + (gaps[i] ?? '')).join('')));

const runs = Number(process.env['FUZZ_RUNS'] ?? 1000);

describe('simple inline scanner', () => {
  it('gives the nodes the inline parser gives, whenever it reads content at all', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(content, prose), (text) => {
        const fast = scanned(text);
        if (fast === undefined) return;
        accepted += 1;
        expect(fast, JSON.stringify(text)).toEqual(parsed(text));
      }),
      { numRuns: runs },
    );
    // A scanner that always declined would pass the comparison: it must read a good part.
    expect(accepted).toBeGreaterThan(runs / 5);
  });

  it('reads the simple syntax of real prose itself', () => {
    const lines = [
      'Export ledger *stores* migration `InvoiceService` the policy request `InvoiceService`\nlogs **flag** retry sort.',
      'Response `LedgerWriter`\nupload rejects export [sends](https://example.test/sends) review archive',
      'Endpoint after every report [each](https://example.test/each) must when currency the when.',
      '*task* never response latency metric invoice flag endpoint\nmember validation within rate.',
      'The `snake_case` name and a snake_case word, 2 * 3 and a – b.',
      'First line  \nafter a hard break, then ` padded ` code and `*` alone.',
      '__Strong__ and _emphasis_ with [a *link*](https://example.test/a?b=c#d), A & B!',
      // Headings cut short: an unmatched backtick, an opener never closed.
      'Design: Member workspace `SessionStore` token `ExportWor',
      'Phase 1: Logs retry should row within token **web',
    ];
    for (const line of lines) {
      expect(scanned(line), line).toBeDefined();
      expect(scanned(line), line).toEqual(parsed(line));
    }
  });

  it('leaves anything outside its syntax to the parser', () => {
    for (const text of ['a \\* b', '<b>x</b>', '&amp;', '![alt](x)', '``a``', 'a*b*c', '***a***', '*a **b*', 'a\tb', '[a](b c)', '[a](<b>)', '*a **b* c**', '[x [y](https://x.test/y)', '*[a]* [b`]`](c)'])
      expect(simpleInlineTokens(text), text).toBeUndefined();
  });

  it('reads brackets that start no link as text, unless the document defines references', () => {
    for (const text of ['[ref]', '[a] b', 'a ]', '[~] Retry with back-off', 'Requirements: must [alert](http', '*[WIP]* and [a](https://x.test/a)', '[a] (b)', 'a](b)', 'a ] [b](https://x.test/b) ]', '[a](b', '[a] b](c)']) {
      expect(scanned(text), text).toBeDefined();
      expect(scanned(text), text).toEqual(parsed(text));
    }
    // `[ref]` is a link wherever `[ref]: url` is defined: the parser must judge it.
    for (const text of ['[ref]', '[a] b', 'a ]', 'must [alert](http']) expect(simpleInlineTokens(text, true), text).toBeUndefined();
  });

  it('reads the inline content of every Markdown file in the repository as the parser does', () => {
    let [contents, accepted] = [0, 0];
    for (const file of repositoryMarkdownFiles()) {
      const tokens: Token[] = [];
      md.block.parse(readFileSync(file, 'utf8').replace(/\r\n?/g, '\n'), md, { starts: [0] }, tokens);
      for (const token of tokens) {
        if (token.type !== 'inline') continue;
        contents += 1;
        const fast = scanned(token.content);
        if (fast === undefined) continue;
        accepted += 1;
        expect(fast, `${file}: ${JSON.stringify(token.content)}`).toEqual(parsed(token.content));
      }
    }
    expect(contents).toBeGreaterThan(1000);
    expect(accepted).toBeGreaterThan(contents / 2);
  });
});
