import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Nodes } from 'mdast';
import { referenceFacts } from '../test-support/reference-facts.js';
import { referenceTree } from '../test-support/reference-tree.js';
import { markdownTree, type MarkdownTree } from './markdown-tree.js';
import { extractFacts } from './parse-artifact.js';
import type { ArtifactFacts } from './types.js';

// The fast reader must give exactly the facts remark's reading gives, extracted node by node
// with mdast-util-to-string. The one difference by design: line endings inside extracted texts
// are always `\n`, where remark keeps the file's own; so the reference reads the Markdown with
// its line endings as `\n` (no line moves). Front-matter is YAML, read from the file as written
// by both.
function reference(text: string, normalized: string, tree: MarkdownTree): ArtifactFacts {
  const facts = referenceFacts(normalized, () => tree);
  const { frontMatter, diagnostics } = normalized === text ? facts : referenceFacts(text);
  if (tree.root.children[0]?.type === 'yaml' || !/^---[ \t]*(\n|$)/.test(normalized)) return { ...facts, frontMatter, diagnostics };
  // micromark defect: after a first line that opens front-matter never closed, it recognises no
  // list or block quote for the rest of the file. CommonMark reads that line as the thematic
  // break it is, and so does the fast tree (the file still fails with front-matter-invalid).
  // What the body holds, template prompts included, is read as CommonMark reads it.
  const body = referenceFacts(normalized.replace(/^---/, '***'));
  const bodyDiagnostics = [...diagnostics.filter((d) => d.ruleId === 'front-matter-invalid'), ...body.diagnostics];
  return { ...facts, frontMatter, diagnostics: bodyDiagnostics, sections: body.sections, tasks: body.tasks, tables: body.tables, statements: body.statements };
}

/**
 * micromark defects, where CommonMark (and cmark) read as the fast tree does; such documents
 * are not compared. A lone HTML tag line (CommonMark's kind 7) that lazily continues a
 * paragraph in a list item or block quote starts an HTML block inside that container (it is
 * paragraph text); indented code on the line right after a block quote is cut into one block
 * per line (it is one block); and a `[x]` under an empty list item vanishes (see below).
 */
function hasMicromarkDefect(node: Nodes): boolean {
  if (!('children' in node)) return false;
  const children = node.children as Nodes[];
  for (let i = 1; i < children.length; i += 1) {
    const [before, after] = [children[i - 1], children[i]];
    if (!before?.position || !after?.position || after.position.start.line !== before.position.end.line + 1) continue;
    if ((node.type === 'listItem' || node.type === 'blockquote') && after.type === 'html' && before.type === 'paragraph') return true;
    if (before.type === 'blockquote' && after.type === 'code') return true;
  }
  // A `[x]` right after an empty list item whose text is not indented under it: micromark takes
  // it for the item's task check and drops it from the paragraph (which belongs to no item).
  if (node.type !== 'listItem' && 'checked' in node) return true;
  return children.some(hasMicromarkDefect);
}

/**
 * Known differences in whitespace only. A code span or inline HTML that runs over a lazy
 * continuation line keeps that line's leading whitespace in micromark, measured after the
 * containers the line still belongs to, where the fast tree measures it after the paragraph's
 * own indent; and markdown-it expands a tab in indented code inside nested block quotes from
 * the wrong column. Where the reference holds such a value, runs of spaces are compared as one
 * and spaces after a line ending not at all.
 */
function hasLooseWhitespace(node: Nodes, quotes = 0): boolean {
  if ((node.type === 'inlineCode' || node.type === 'html') && /(?:^|\n)[ \t]/.test(node.value)) return true;
  if (node.type === 'code' && quotes > 1) return true;
  return 'children' in node && (node.children as Nodes[]).some((child) => hasLooseWhitespace(child, quotes + (node.type === 'blockquote' ? 1 : 0)));
}

function collapseWhitespace<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/[ \t]+/g, ' ').replace(/\n /g, '\n') as T;
  if (Array.isArray(value)) return value.map(collapseWhitespace) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, collapseWhitespace(v)])) as T;
  return value;
}

// The same defect, when the `[ ]` line is a paragraph of its own: remark stops on an assertion.
const BOX_AFTER_EMPTY_ITEM = /(?:^|\n)[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*\n[ \t]*\[[ xX]\]/;

/** remark's tree, or undefined where it fails on that defect. */
function referenceTreeOf(normalized: string): MarkdownTree | undefined {
  try {
    return referenceTree(normalized);
  } catch (error) {
    if (BOX_AFTER_EMPTY_ITEM.test(normalized)) return undefined;
    throw error;
  }
}

let compared = 0;
let skipped = 0;

function expectSameFacts(text: string): void {
  // Over the same tree, whatever it holds, the fast extraction and the reference agree exactly,
  // down to the order of keys (cached facts are the same bytes).
  const sameTree = referenceFacts(text, markdownTree);
  expect(JSON.stringify(extractFacts(text)), JSON.stringify(text)).toBe(JSON.stringify(sameTree));
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const tree = referenceTreeOf(normalized);
  if (tree === undefined || hasMicromarkDefect(tree.root)) {
    skipped += 1;
    return;
  }
  compared += 1;
  const [fast, expected] = [extractFacts(text), reference(text, normalized, tree)];
  if (hasLooseWhitespace(tree.root)) expect(collapseWhitespace(fast), JSON.stringify(text)).toEqual(collapseWhitespace(expected));
  else expect(fast, JSON.stringify(text)).toEqual(expected);
}

const root = fileURLToPath(new URL('../../../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

// Inline pieces: every construct that changes a node's type or its plain text.
const inline = fc.constantFrom(
  'word', 'TBD', 'todo', '…', '<describe it>', '<b>bold</b>', '<!-- note -->', '*em*', '_em_', '**strong**', '__strong__', '***both***',
  '`code`', '`` a`b ``', '` spaced `', '[link](http://x.test "t")', '[ref]', '[ref][]', '![alt *x*](i.png)', '<http://a.test/%20b>', '<me@x.test>',
  '\\*', '\\[x]', '&amp;', '&#10;', '&NewLine;', '&bogus;', 'a: b', '**Term**: text', '`Term`: text', '\\', '  ', '\t', '|', '\\|', '`a|b`',
  '[x]', '[ ]', '[~]', '[', ']', '*', '_', '~~strike~~', ':', '#', '<', '>', '!', '"', "'", '\u00a0', 'é', '😀',
);
const inlineText = fc.array(fc.oneof({ weight: 5, arbitrary: inline }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 6 }).map((parts) => parts.join(''));
// Line starts: every container and leaf block, at every indentation that matters.
const prefix = fc.constantFrom(
  '', '', '', ' ', '  ', '   ', '    ', '\t', '# ', '## ', '###### ', '####### ', '> ', '>', '> > ', '- ', '* ', '+ ', '1. ', '2) ', '10. ', '- [ ] ', '- [x] ',
  '- [X]\t', '* [~] ', '1. [ ] ', '  - [ ] ', '    - [x] ', '> - [ ] ', '- > ', '- - ', '- # ', '| ', '[ref]: http://r.test\n', '```\n', '~~~\n', '<div>\n', '<!--\n',
);
const lineText = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(prefix, inlineText).map(([p, t]) => p + t) },
  { weight: 2, arbitrary: fc.constantFrom('', '', '===', '---', '***', '```', '~~~', '-->', '</div>', '| a | b |', '|---|---|', '| --- | :-: |', 'a | b', '--- | ---', '| 1 | 2 | 3 |', '| 1 |', '|   |   |', '| <x> | TBD |', '- ', '1.', '>', '[ref]: /u') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const document = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineText, eol), { maxLength: 30 }))
  .map(([front, lines]) => (front ? '---\nstatus: draft\n---\n' : '') + lines.map(([line, end]) => line + end).join(''));

describe('the fast markdown tree reads what remark reads', () => {
  it('on every markdown file of the repository (docs, fixtures, READMEs)', () => {
    const files = [...markdownFiles(join(root, 'docs')), ...markdownFiles(join(root, 'test-fixtures')), join(root, 'README.md')];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) expectSameFacts(readFileSync(file, 'utf8'));
  });

  it('on generated markdown: every block and inline construct, nested, with any line ending', () => {
    [compared, skipped] = [0, 0];
    fc.assert(fc.property(document, expectSameFacts), {
      numRuns: Number(process.env['FUZZ_RUNS'] ?? 1000),
      // Found by earlier runs: a prompt in what micromark, past an unclosed front-matter line, reads
      // as a code span; a header row whose closing pipe follows an escaped backslash; a header cell of
      // a no-break space alone; a shortcut reference before a parenthesis that opens nothing; a
      // header row that reads as a link definition; a box after an empty list item, where remark fails.
      examples: [
        ['---\n`<describe it>\n- # `code`\n'],
        ['\\\\|\n--- | ---\n'],
        ['\u00a0|word\n--- | ---\n'],
        ['[ref]: http://r.test\n[ref](\n'],
        ['[ref]: http://r.test\n![ref]( \n'],
        ['[x]:`a|b`\n| --- | :-: |\n'],
        ['1.\n[ ]\nword\n'],
      ],
    });
    // The documents set aside for micromark's defects stay a small share.
    expect(skipped).toBeLessThan(compared / 20);
  });
});
