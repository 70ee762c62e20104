import type { Nodes } from 'mdast';
import { expect } from 'vitest';
import { markdownTree, type MarkdownTree } from '../artifact/markdown-tree.js';
import { extractFacts } from '../artifact/parse-artifact.js';
import type { ArtifactFacts } from '../artifact/types.js';
import { referenceFacts } from './reference-facts.js';
import { referenceTree } from './reference-tree.js';

// The fast reader must give exactly the facts remark's reading gives, extracted node by node
// with mdast-util-to-string. The one difference by design: line endings inside extracted texts
// are always `\n`, where remark keeps the file's own; so the reference reads the Markdown with
// its line endings as `\n` (no line moves). Front-matter is YAML, read from the file as written
// by both.
function reference(text: string, normalized: string, tree: MarkdownTree): ArtifactFacts {
  const facts = referenceFacts(normalized, () => tree);
  const { frontMatter, diagnostics } = normalized === text ? facts : referenceFacts(text);
  if (!opensFrontMatterNeverClosed(normalized, tree)) return { ...facts, frontMatter, diagnostics };
  // micromark defect: after a first line that opens front-matter never closed, it recognises no
  // list or block quote for the rest of the file. CommonMark reads that line as the thematic
  // break it is, and so does the fast tree (the file still fails with front-matter-invalid).
  // What the body holds, template prompts included, is read as CommonMark reads it.
  const body = referenceFacts(normalized.replace(/^---/, '***'));
  const bodyDiagnostics = [...diagnostics.filter((d) => d.ruleId === 'front-matter-invalid'), ...body.diagnostics];
  return { ...facts, frontMatter, diagnostics: bodyDiagnostics, sections: body.sections, tasks: body.tasks, tables: body.tables, statements: body.statements };
}

function opensFrontMatterNeverClosed(normalized: string, tree: MarkdownTree): boolean {
  return tree.root.children[0]?.type !== 'yaml' && /^---[ \t]*(\n|$)/.test(normalized);
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
    if ((node.type === 'listItem' || node.type === 'blockquote') && after.type === 'html' && before.type === 'paragraph' && interruptsNoParagraph(after.value)) return true;
    if (before.type === 'blockquote' && after.type === 'code') return true;
  }
  // A `[x]` right after an empty list item whose text is not indented under it: micromark takes
  // it for the item's task check and drops it from the paragraph (which belongs to no item).
  if (node.type !== 'listItem' && 'checked' in node) return true;
  return children.some(hasMicromarkDefect);
}

/** Whether an HTML block's first line is one that cannot interrupt a paragraph (kind 7), as remark reads it there. */
function interruptsNoParagraph(html: string): boolean {
  return referenceTree(`x\n${html.trimStart().split('\n')[0] ?? ''}`).root.children.length === 1;
}

/**
 * Known differences in whitespace only. A code span or inline HTML that runs over a lazy
 * continuation line keeps that line's leading whitespace in micromark, measured after the
 * containers the line still belongs to, where the fast tree measures it after the paragraph's
 * own indent (a code span that closes on such a line can then end in micromark with the line
 * ending, its padding space stripped from the lazy line, where CommonMark strips the line
 * ending); and markdown-it expands a tab in indented code inside nested block quotes from
 * the wrong column. Where the reference holds such a value, every run of whitespace is compared
 * as one space, and none at either end of a text.
 */
function hasLooseWhitespace(node: Nodes, quotes = 0): boolean {
  if ((node.type === 'inlineCode' || node.type === 'html') && /(?:^|\n)[ \t]|\n$/.test(node.value)) return true;
  if (node.type === 'code' && quotes > 1) return true;
  return 'children' in node && (node.children as Nodes[]).some((child) => hasLooseWhitespace(child, quotes + (node.type === 'blockquote' ? 1 : 0)));
}

function collapseWhitespace<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim() as T;
  if (Array.isArray(value)) return value.map(collapseWhitespace) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, collapseWhitespace(v)])) as T;
  return value;
}

// The same defect, when the `[ ]` line is a paragraph of its own, right after the empty item or
// after link definitions (which leave nothing between): remark stops on an assertion.
const BOX_AFTER_EMPTY_ITEM = /(?:^|\n)[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*\n(?:[ \t]*\[[^\]\n]*\]:[^\n]*\n)*[ \t]*\[[ xX]\]/;

/** remark's tree, or undefined where it fails on that defect. */
function referenceTreeOf(normalized: string): MarkdownTree | undefined {
  try {
    return referenceTree(normalized);
  } catch (error) {
    if (BOX_AFTER_EMPTY_ITEM.test(normalized)) return undefined;
    throw error;
  }
}

/**
 * Expect the facts of `text` to be those remark's reading gives (see `reference`): 'compared',
 * or 'skipped' where remark reads the document with one of its known defects.
 */
export function expectSameFacts(text: string): 'compared' | 'skipped' {
  // Over the same tree, whatever it holds, the fast extraction and the reference agree exactly,
  // down to the order of keys (cached facts are the same bytes).
  const sameTree = referenceFacts(text, markdownTree);
  expect(JSON.stringify(extractFacts(text)), JSON.stringify(text)).toBe(JSON.stringify(sameTree));
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const tree = referenceTreeOf(normalized);
  // Past a first line that opens front-matter never closed, the body is what is compared (see
  // reference): a defect there counts too.
  const body = tree && opensFrontMatterNeverClosed(normalized, tree) ? referenceTreeOf(normalized.replace(/^---/, '***')) : tree;
  if (tree === undefined || body === undefined || hasMicromarkDefect(tree.root) || hasMicromarkDefect(body.root)) return 'skipped';
  const [fast, expected] = [extractFacts(text), reference(text, normalized, tree)];
  if (hasLooseWhitespace(tree.root)) expect(collapseWhitespace(fast), JSON.stringify(text)).toEqual(collapseWhitespace(expected));
  else expect(fast, JSON.stringify(text)).toEqual(expected);
  return 'compared';
}
