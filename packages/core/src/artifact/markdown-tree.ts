import type { Heading, List, ListItem, Nodes, PhrasingContent, Root, RootContent, Table, TableCell, Text } from 'mdast';
import type { Token } from 'markdown-it';
import { toString } from 'mdast-util-to-string';
import { splitCells } from './gfm-table.js';
import { columnOf, markdownReader, type ParseEnv } from './micromark-block.js';
import { holdsInlineSyntax } from './micromark-inline.js';
import { at, CHECK_LENGTH, taskParagraph, unescapePipesInCode, type Position } from './mdast-nodes.js';
import { readSimpleBlocks, type BlockSink } from './simple-blocks.js';
import { simpleInlineTokens, type InlineToken } from './simple-inline.js';

/** The syntax tree the facts are extracted from, and where the parser stopped reading, if it did. */
export interface MarkdownTree {
  readonly root: Root;
  /** The line (1-based) where nesting went too deep and the rest of that block was not read. */
  readonly truncatedAt: number | undefined;
}

// A leading `---` line, the YAML, and the next `---` line, as remark-frontmatter reads them.
const FRONT_MATTER = /^---[ \t]*(?:\r\n|\r|\n)(?:([\s\S]*?)(?:\r\n|\r|\n))??---[ \t]*(?=\r\n|\r|\n|$)/;

// HTML blocks that end only at an end marker (CommonMark's kinds 1 to 5): how each starts, and its marker.
const HTML_ENDS: readonly (readonly [RegExp, RegExp])[] = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

// A line that opens a block quote or a list item.
const CONTAINER_START = /^[ \t]*(?:>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

type Container = { children: Nodes[] };

/**
 * The document's tree in the shape remark-parse gives (with remark-frontmatter and the GFM table
 * and task-list extensions), holding what the gates read: node types, start positions of
 * headings, paragraphs, HTML blocks, list items, tables and rows, and plain text. A document of
 * simple block syntax, as most are, is read line by line (simple-blocks.ts); any other is read
 * by markdown-it. Line endings inside texts are `\n` whatever the file uses.
 */
export function markdownTree(text: string): MarkdownTree {
  const markdown = preparedMarkdown(text);
  const root = rootOf(markdown);
  if (readSimply(markdown, root)) return { root, truncatedAt: undefined };
  return treeFromTokens(rootOf(markdown), markdown);
}

/** The tree as the simple block reader reads it, or undefined when the document holds more than it reads. */
export function simpleMarkdownTree(text: string): MarkdownTree | undefined {
  const markdown = preparedMarkdown(text);
  const root = rootOf(markdown);
  return readSimply(markdown, root) ? { root, truncatedAt: undefined } : undefined;
}

/** The tree built from markdown-it's block tokens, whatever the document holds. */
export function markdownItTree(text: string): MarkdownTree {
  const markdown = preparedMarkdown(text);
  return treeFromTokens(rootOf(markdown), markdown);
}

function readSimply({ src, start, firstLine }: PreparedMarkdown, root: Root): boolean {
  return readSimpleBlocks(src, new TreeSink(root.children), start, firstLine) !== undefined;
}

/** The tree of what the simple block reader reads: the nodes the token path builds, alike. */
class TreeSink implements BlockSink {
  // The children of the root and of each open container, and the list item each container is.
  private readonly parents: RootContent[][];
  private readonly items: (ListItem | undefined)[] = [undefined];
  private table: Table | undefined;

  constructor(root: RootContent[]) {
    this.parents = [root];
  }

  private top(): RootContent[] {
    return this.parents[this.parents.length - 1] as RootContent[];
  }

  paragraph(content: string, line: number, column: number, first: boolean): void {
    const item = first ? this.items[this.items.length - 1] : undefined;
    const task = item ? taskParagraph(content, line, column, simplePhrasing) : undefined;
    if (item && task) {
      item.checked = task.checked;
      this.top().push(task.paragraph);
    } else this.top().push({ type: 'paragraph', children: simplePhrasing(content, line), position: at(line, column) });
  }

  heading(depth: number, content: string, line: number, column: number): void {
    this.top().push({ type: 'heading', depth: depth as Heading['depth'], children: simplePhrasing(content, line), position: at(line, column) });
  }

  code(value: string): void {
    this.top().push({ type: 'code', value });
  }

  html(value: string, line: number, column: number): void {
    this.top().push({ type: 'html', value, position: at(line, column) });
  }

  thematicBreak(): void {
    this.top().push({ type: 'thematicBreak' });
  }

  tableRow(text: string, line: number, column: number, header: boolean): void {
    if (header) {
      this.table = { type: 'table', children: [], position: at(line, column) };
      this.top().push(this.table);
    }
    const row: TableCell[] = splitCells(text).map((content) => ({ type: 'tableCell', children: simpleCellPhrasing(content) }));
    this.table?.children.push({ type: 'tableRow', children: row, position: at(line, column) });
  }

  openQuote(): void {
    const quote = { type: 'blockquote', children: [] } as RootContent & { children: RootContent[] };
    this.top().push(quote);
    this.parents.push(quote.children);
    this.items.push(undefined);
  }

  openItem(ordered: boolean, newList: boolean, line: number, column: number): void {
    const parent = this.top();
    let list = newList ? undefined : parent[parent.length - 1];
    if (list?.type !== 'list') {
      list = { type: 'list', ordered, children: [] };
      parent.push(list);
    }
    const item: ListItem = { type: 'listItem', children: [], position: at(line, column) };
    list.children.push(item);
    this.parents.push(item.children as RootContent[]);
    this.items.push(item);
  }

  closeContainer(): void {
    this.parents.pop();
    this.items.pop();
  }
}

/** The phrasing of inline content in a document read with no markdown-it block parse: no definitions, no tabs left over. */
export function simplePhrasing(content: string, line: number): PhrasingContent[] {
  return readPhrasing(content, line, undefined);
}

/** The same for a table cell's content, where `\|` is a pipe even in a code span. */
export function simpleCellPhrasing(content: string): PhrasingContent[] {
  return unescapePipesInCode(simplePhrasing(content, 1));
}

function treeFromTokens(root: Root, { src: text, start, firstLine }: PreparedMarkdown): MarkdownTree {
  // Blank lines in the front-matter's place keep every later line where it was.
  const src = start === 0 ? text : '\n'.repeat(firstLine - 1) + text.slice(start);
  const md = markdownReader();
  const env: ParseEnv = { starts: [0] };
  const tokens: Token[] = [];
  md.block.parse(src, md, env, tokens);
  new TreeBuilder(env, src, tokens).build(root);
  return { root, truncatedAt: env.truncatedAt === undefined ? undefined : env.truncatedAt + 1 };
}

/** An empty root, but for the front-matter node if the file has one. */
function rootOf({ yaml }: PreparedMarkdown): Root {
  return { type: 'root', children: yaml === undefined ? [] : [{ type: 'yaml', value: yaml, position: at(1, 1) }] };
}

/** A file's front-matter YAML and its Markdown, as the block readers read it (see preparedMarkdown). */
export interface PreparedMarkdown {
  readonly yaml: string | undefined;
  readonly src: string;
  readonly start: number;
  readonly firstLine: number;
}

/**
 * A file's front-matter YAML, if it opens with a block of it, and the Markdown as the block
 * readers read it: `\n` for every line ending, U+FFFD for NUL, and read from `start` (past the
 * front-matter, on line `firstLine`) or with the front-matter's lines blank.
 */
export function preparedMarkdown(text: string): PreparedMarkdown {
  const front = FRONT_MATTER.exec(text);
  const yaml = front ? (front[1] ?? '') : undefined;
  // Most files need neither replacement, and are read as they are.
  if (!text.includes('\r') && !text.includes('\0')) return { yaml, src: text, start: front ? front[0].length : 0, firstLine: front ? lineEndings(front[0]) + 1 : 1 };
  const body = front ? '\n'.repeat(front[0].match(/\r\n|\r|\n/g)?.length ?? 0) + text.slice(front[0].length) : text;
  const lf = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  return { yaml, src: lf.includes('\0') ? lf.replace(/\0/g, '\uFFFD') : lf, start: 0, firstLine: 1 };
}

/**
 * A file's front-matter block: the offsets of the block, fences included, and its YAML;
 * undefined when the file has none. `text` has no byte-order mark.
 */
export function frontMatterBlock(text: string): { start: number; end: number; yaml: string } | undefined {
  const front = FRONT_MATTER.exec(text);
  return front ? { start: 0, end: front[0].length, yaml: front[1] ?? '' } : undefined;
}

class TreeBuilder {
  private index = 0;
  private quotes = 0;
  constructor(
    private readonly env: ParseEnv,
    private readonly src: string,
    private readonly tokens: readonly Token[],
  ) {}

  build(root: Root): void {
    this.blocks(root as Container, undefined);
  }

  /** Append the blocks up to the closing token `until` (or the end) to `parent`. */
  private blocks(parent: Container, until: string | undefined): void {
    const { tokens } = this;
    while (this.index < tokens.length) {
      const token = tokens[this.index] as Token;
      this.index += 1;
      if (token.type === until) return;
      const node = this.block(token);
      if (node) parent.children.push(node);
    }
  }

  private block(token: Token): RootContent | undefined {
    switch (token.type) {
      case 'paragraph_open': {
        const where = position(token);
        return { type: 'paragraph', children: this.inlineUntil('paragraph_close', where.start.line), position: where };
      }
      case 'heading_open': {
        const where = position(token);
        const heading: Heading = { type: 'heading', depth: Number(token.tag.slice(1)) as Heading['depth'], children: this.inlineUntil('heading_close', where.start.line), position: where };
        return heading;
      }
      case 'blockquote_open': {
        const quote: Container = { children: [] };
        this.quotes += 1;
        this.blocks(quote, 'blockquote_close');
        this.quotes -= 1;
        return { type: 'blockquote', children: quote.children } as RootContent;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const list: List = { type: 'list', ordered: token.type === 'ordered_list_open', children: [] };
        const close = token.type === 'ordered_list_open' ? 'ordered_list_close' : 'bullet_list_close';
        while (this.index < this.tokens.length) {
          const next = this.tokens[this.index] as Token;
          this.index += 1;
          if (next.type === close) break;
          if (next.type === 'list_item_open') list.children.push(this.listItem(next));
        }
        return list;
      }
      case 'fence':
      case 'code_block':
        return { type: 'code', value: withoutFinalEol(token.content) };
      case 'html_block':
        // Its line is where a search for the template prompts in it starts.
        return { type: 'html', value: this.keepsFinalEol(token) ? token.content : withoutFinalEol(token.content), position: position(token) };
      case 'hr':
        return { type: 'thematicBreak' };
      case 'reference_definition':
        return { type: 'definition', identifier: '', url: '' } as RootContent;
      case 'table_open':
        return this.table(token);
      default:
        return undefined;
    }
  }

  /**
   * An HTML block that only its end marker closes (a comment, `<script>`, …) and that its end
   * marker did not close: mdast keeps its last line ending when the block runs to the end of a
   * file ending in one (unless a block quote, which the empty last line is not in, holds it), or
   * when the next line starts a list item or block quote.
   */
  private keepsFinalEol(token: Token): boolean {
    const end = token.map?.[1] ?? 0;
    const atEnd = end === this.env.starts.length - 1;
    if (!token.content.endsWith('\n') || (atEnd ? this.quotes > 0 : !CONTAINER_START.test(this.lineAt(end)))) return false;
    const open = token.content.trimStart();
    const kind = HTML_ENDS.find(([start]) => start.test(open));
    if (!kind) return false;
    // The end marker closes the block on any line, the first included (after its opening).
    const body = open.slice((kind[0].exec(open)?.[0] ?? '').length);
    const lastLine = body.slice(body.lastIndexOf('\n', body.length - 2) + 1);
    return !kind[1].test(lastLine);
  }

  private lineAt(line: number): string {
    return this.src.slice(this.env.starts[line] ?? this.src.length, this.lineEnd(line));
  }

  private listItem(open: Token): ListItem {
    const item: ListItem = { type: 'listItem', children: [], position: position(open) };
    const first = this.tokens[this.index];
    const inline = this.tokens[this.index + 1];
    const content = first?.type === 'paragraph_open' && inline?.type === 'inline' && !this.opensWithBlankSpace(open) ? inline.content : undefined;
    const task =
      first && content !== undefined
        ? taskParagraph(content, position(first).start.line, columnOf(first), (rest, line) => {
            const tabs = this.env.tabLeftOvers?.get(content);
            if (tabs) this.env.tabLeftOvers?.set(rest, new Set([...tabs].map((at) => at - CHECK_LENGTH)));
            return this.phrasing(rest, line);
          })
        : undefined;
    if (task) {
      item.checked = task.checked;
      this.index += 3;
      item.children.push(task.paragraph);
    }
    this.blocks(item as Container, 'list_item_close');
    return item;
  }

  // micromark takes no task check in an item whose marker line holds only spaces or tabs
  // after the marker (`- ` then the text on the next line); a bare `-` line does not count.
  private opensWithBlankSpace(item: Token): boolean {
    const { src } = this;
    const line = item.map?.[0] ?? 0;
    const end = this.lineEnd(line);
    const afterMarker = (this.env.starts[line] ?? 0) + columnOf(item) - 1 + item.info.length + item.markup.length;
    if (afterMarker >= end) return false;
    for (let at = afterMarker; at < end; at += 1) if (src.charCodeAt(at) !== 0x20 && src.charCodeAt(at) !== 0x09) return false;
    return true;
  }

  /** Where a line ends, its line ending not included. */
  private lineEnd(line: number): number {
    const { starts } = this.env;
    return line + 1 < starts.length ? (starts[line + 1] as number) - 1 : this.src.length;
  }

  /** The rest of a token's first line, from where the token starts. */
  private lineOf(token: Token): string {
    const line = token.map?.[0] ?? 0;
    return this.src.slice((this.env.starts[line] ?? 0) + columnOf(token) - 1, this.lineEnd(line));
  }

  private table(open: Token): Table {
    const table: Table = { type: 'table', children: [], position: position(open) };
    while (this.index < this.tokens.length) {
      const token = this.tokens[this.index] as Token;
      this.index += 1;
      if (token.type === 'table_close') break;
      if (token.type === 'tr_open') {
        const cells = splitCells(this.lineOf(token)).map((content): TableCell => ({ type: 'tableCell', children: unescapePipesInCode(this.phrasing(content, 1)) }));
        table.children.push({ type: 'tableRow', children: cells, position: position(token) });
      }
    }
    return table;
  }

  /** The inline content of the current block, consuming tokens up to its closing token. */
  private inlineUntil(close: string, line: number): PhrasingContent[] {
    let children: PhrasingContent[] = [];
    while (this.index < this.tokens.length) {
      const token = this.tokens[this.index] as Token;
      this.index += 1;
      if (token.type === close) break;
      if (token.type === 'inline') children = this.phrasing(token.content, line);
    }
    return children;
  }

  private phrasing(content: string, line: number): PhrasingContent[] {
    return readPhrasing(content, line, this.env);
  }
}

/** The phrasing of inline content that starts on `line` (a line ending in it starts another). */
export function readPhrasing(content: string, line: number, env: ParseEnv | undefined): PhrasingContent[] {
  // As markdown-it would read it, without setting up an inline parse (a table cell, a plain line).
  if (!holdsInlineSyntax(content)) return content === '' ? [] : [{ type: 'text', value: content }];
  const tabbed = env?.tabLeftOvers?.has(content) === true;
  // Lines of plain text (a task and the line under it, say): one text node, each line ending
  // kept and the spaces around it dropped, as the line-ending rule does.
  if (!tabbed && !RULE_BUT_LINE_ENDING.test(content)) return [{ type: 'text', value: content.replace(AROUND_LINE_ENDING, '\n') }];
  // Most content holds only simple syntax, read without setting up an inline parse; a space
  // standing for a tab's column is known only to the parser's rules. The simple block reader
  // declines a document that defines a reference; markdown-it's leaves them in its env.
  const simple = tabbed ? undefined : simpleInlineTokens(content, env?.references !== undefined);
  if (simple) return phrasingOf(simple, { line, breaks: 0 });
  const md = markdownReader();
  const tokens: Token[] = [];
  md.inline.parse(content, md, env ?? { starts: [0] }, tokens);
  return phrasingOf(tokens, { line, breaks: 0 });
}

// What makes inline content more than lines of text: a character another inline rule starts at
// (a tab: the columns it stands for), or a line ending in two spaces or more (a hard break).
const RULE_BUT_LINE_ENDING = /[\t!&*<[\\\]_`]| {2}\n/;
// A soft break drops the one space that may come before it and the spaces after it.
const AROUND_LINE_ENDING = / ?\n */g;

/**
 * The line endings of the source read so far in a block's inline content. A node that starts
 * after one carries its line, as remark's nodes do: a template prompt is searched from there
 * (an escaped or decoded copy of it earlier in the paragraph is not it).
 */
interface InlineLines {
  readonly line: number;
  breaks: number;
}

/** mdast phrasing nodes from markdown-it inline tokens; adjacent text merges, as in mdast. */
export function phrasingOf(tokens: readonly (InlineToken & { readonly children?: Token['children'] })[], lines: InlineLines): PhrasingContent[] {
  const top: Container = { children: [] };
  const stack: Container[] = [top];
  let parent = top;
  // The last child of `parent` while it is text, which adjacent text joins.
  let tail: Text | undefined;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    switch (token.type) {
      case 'text':
      case 'text_special':
      case 'softbreak': {
        const value = token.type === 'softbreak' ? '\n' : token.content;
        if (tail) tail.value += value;
        else if (value !== '') parent.children.push((tail = placed({ type: 'text', value }, lines)));
        if (token.type === 'softbreak') lines.breaks += 1;
        break;
      }
      case 'hardbreak':
        parent.children.push({ type: 'break' });
        tail = undefined;
        lines.breaks += 1;
        break;
      case 'code_inline':
        parent.children.push(placed({ type: 'inlineCode', value: token.content }, lines));
        tail = undefined;
        lines.breaks += lineEndings(token.content);
        break;
      case 'html_inline':
        parent.children.push(placed({ type: 'html', value: token.content }, lines));
        tail = undefined;
        lines.breaks += lineEndings(token.content);
        break;
      case 'image': {
        const image = placed({ type: 'image', url: '', alt: '' }, lines);
        image.alt = toString(phrasingOf(token.children ?? [], lines));
        parent.children.push(image);
        tail = undefined;
        break;
      }
      case 'em_open':
      case 'strong_open':
      case 'link_open': {
        const node = placed({ type: token.type === 'em_open' ? 'emphasis' : token.type === 'strong_open' ? 'strong' : 'link', url: '', children: [] } as Nodes & Container, lines);
        parent.children.push(node);
        stack.push(node);
        parent = node;
        tail = undefined;
        break;
      }
      case 'em_close':
      case 'strong_close':
      case 'link_close':
        if (stack.length > 1) {
          stack.pop();
          parent = stack[stack.length - 1] as Container;
          tail = undefined;
        }
        break;
      default:
        break;
    }
  }
  return top.children as PhrasingContent[];
}

/** A node with the line it starts on, when that is not its block's first line. */
function placed<T extends Nodes>(node: T, lines: InlineLines): T {
  if (lines.breaks > 0) node.position = at(lines.line + lines.breaks, 1);
  return node;
}

function lineEndings(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function withoutFinalEol(value: string): string {
  return value.endsWith('\n') ? value.slice(0, -1) : value;
}

function position(token: Token): Position {
  const line = token.meta?.['line'];
  return at((typeof line === 'number' ? line : (token.map?.[0] ?? 0)) + 1, columnOf(token));
}
