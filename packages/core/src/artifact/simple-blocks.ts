import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';
import { isDelimiterRow, opensTable } from './gfm-table.js';

/**
 * What the simple block reader finds, block by block in document order, for a tree or for facts
 * to be built from. Leaf blocks are given whole, once read (a paragraph once it ends, a fence
 * once closed); containers are opened and closed around what they hold. Positions are 1-based;
 * inline content is given as markdown-it's tokens would hold it.
 */
export interface BlockSink {
  /** A paragraph; `first` when it is the first block of the list item just opened. */
  paragraph(content: string, line: number, column: number, first: boolean): void;
  /** An ATX or setext heading. */
  heading(depth: number, content: string, line: number, column: number): void;
  code(value: string): void;
  html(value: string, line: number, column: number): void;
  thematicBreak(): void;
  /** A row of a table at the root, as written (`splitCells` gives its cells): the header opens the table. */
  tableRow(row: string, line: number, column: number, header: boolean): void;
  openQuote(): void;
  /** A list item: in a new list, or in the list its container's last block is. */
  openItem(ordered: boolean, newList: boolean, line: number, column: number): void;
  /** The innermost open list item or block quote ends. */
  closeContainer(): void;
}

// What a line opens where its text starts, as far as the simple reader tells lines apart.
const TEXT = 0;
const HEADING = 1;
const FENCE = 2;
const QUOTE = 3;
const BREAK = 4;
const BULLET = 5;
const ORDERED = 6;
const COMMENT = 7;
// Something the simple reader does not read (an empty list item, an HTML block other than a
// comment, a tab where it would count columns, …): the whole document goes to markdown-it.
const DECLINE = 8;

// How many containers (list items and block quotes) may be open at once: far more than any
// spec nests, and far below the nesting at which markdown-it stops reading a container.
const MAX_CONTAINERS = 16;

const SPACE = 0x20;
const TAB = 0x09;

/**
 * An open list item (the column its content starts at) or block quote, and the marker of the list
 * that is its last block, if one is (-1 when none is), which an item with that marker continues.
 * One object for each depth, set again as each container at that depth opens.
 */
interface Container {
  quote: boolean;
  content: number;
  lastList: number;
}

/**
 * The paragraph being read, one object for all of a document's: at the root, or while it has one
 * line, where its lines stand side by side in the source, from `from` to `to`; in a container
 * from its second line on, its lines past the containers' markers (`lines`).
 */
interface OpenParagraph {
  line: number;
  column: number;
  inContainer: boolean;
  lines: string[] | undefined;
  from: number;
  to: number;
  /** Whether it is the first block of a list item, which may open with a task check. */
  first: boolean;
}

interface OpenFence {
  readonly marker: number;
  readonly length: number;
  /** The columns of indent dropped from each line past the containers: the opening fence's. */
  readonly strip: number;
  readonly lines: string[];
}

interface OpenHtml {
  readonly line: number;
  readonly column: number;
  readonly lines: string[];
}

/**
 * Read `src` (a document as preparedMarkdown gives it: `\n` line endings, no NUL, read from
 * `start`, past any front-matter, where line `firstLine` starts), giving its blocks to `sink`,
 * when it holds only simple block syntax: exactly the blocks the tree built from markdown-it's
 * tokens holds. False as soon as it holds anything else, with the sink given any part of it.
 * Simple syntax is what specs are written in: ATX and setext
 * headings, paragraphs with their lazy continuation lines, bullet and ordered lists nested by
 * indentation, task items, fenced code, thematic breaks, HTML comments, GFM tables outside
 * containers, and block quotes of paragraphs outside lists. Indented code, link reference
 * definitions, other HTML blocks, empty list items, tables in containers and tabs that would
 * count as columns are left to markdown-it, as is anything the reader cannot tell apart cheaply.
 * Its result is the number of lines of the document (as `firstLine` numbers them: the lines
 * before `start` counted), or undefined when it declines: lines are counted as they are read.
 */
export function readSimpleBlocks(src: string, sink: BlockSink, start = 0, firstLine = 1): number | undefined {
  return new SimpleBlockReader(src, sink).read(start, firstLine);
}

class SimpleBlockReader {
  // The containers of every depth reached so far; the first `depth` of them are open. Kept and
  // set again rather than pushed and dropped: a document opens thousands of list items.
  private readonly containers: Container[] = [];
  private depth = 0;
  private paragraph: OpenParagraph | undefined;
  // Most blocks are paragraphs: each is read into this object, not one of its own.
  private readonly openParagraph: OpenParagraph = { line: 0, column: 0, inContainer: false, lines: undefined, from: 0, to: 0, first: false };
  private fence: OpenFence | undefined;
  private html: OpenHtml | undefined;
  private table = false;
  /** The marker of the list that is the root's last block, or -1. */
  private rootList = -1;
  /** Set when a table's header line has just been read: its delimiter row is no row. */
  private skipLine = false;
  /** Where the line being read starts. */
  private lineStart = 0;

  constructor(
    private readonly src: string,
    private readonly sink: BlockSink,
  ) {}

  /** Read from `from`, where line `firstLine` starts; the document's number of lines, or undefined when the reader declines it. */
  read(from: number, firstLine: number): number | undefined {
    const { src } = this;
    const length = src.length;
    // The line being read, and the document's last: the line after the last line ending.
    let line = firstLine;
    let last = firstLine;
    for (let start = from; start < length; line += 1) {
      const newline = src.indexOf('\n', start);
      const end = newline === -1 ? length : newline;
      if (newline !== -1) last = line + 1;
      // A last line of only spaces and tabs is no line to markdown-it.
      if (newline === -1 && onlyWhitespace(src, start, end)) break;
      if (this.skipLine) this.skipLine = false;
      else if (!this.readLine(start, end, line)) return undefined;
      start = end + 1;
    }
    return this.finish() ? last : undefined;
  }

  private readLine(start: number, end: number, line: number): boolean {
    const { src, containers, depth } = this;
    this.lineStart = start;
    // The containers the line continues, and where its text starts past their markers.
    let pos = start;
    let matched = 0;
    for (; matched < depth; matched += 1) {
      const container = containers[matched] as Container;
      let at = pos;
      while (at < end && src.charCodeAt(at) === SPACE) at += 1;
      if (src.charCodeAt(at) === TAB) return false;
      if (container.quote) {
        if (at - pos > 3 || src.charCodeAt(at) !== 0x3e) break;
        pos = at + 1;
        const after = src.charCodeAt(pos);
        if (after === SPACE) pos += 1;
        else if (after === TAB) return false;
      } else if (at === end) {
        // A blank line continues a list item, its spaces up to the item's content dropped.
        pos = Math.min(end, start + container.content);
      } else if (at - start >= container.content) {
        pos = start + container.content;
      } else break;
    }
    let first = pos;
    while (first < end && src.charCodeAt(first) === SPACE) first += 1;
    const fence = this.fence;
    if (fence) return matched === depth && this.fenceLine(fence, pos, first, end);
    const html = this.html;
    if (html) return matched === depth && this.htmlLine(html, pos, end);
    if (first < end && src.charCodeAt(first) === TAB) {
      // A line of spaces and tabs outside any container is blank; elsewhere a tab counts columns.
      if (depth > 0 || !onlyWhitespace(src, first, end)) return false;
      this.closeParagraph();
      this.table = false;
      return true;
    }
    const blank = first === end;
    const indent = first - pos;
    if (this.paragraph) {
      if (matched < depth) {
        if (blank) {
          this.closeParagraph();
          this.closeContainers(matched);
          return true;
        }
        // Indented as code, or opening no block that ends the paragraph: a lazy continuation
        // line, which keeps the containers open.
        if (indent < 4) {
          const kind = this.kindAt(first, end);
          if (kind === DECLINE) return false;
          if (kind !== TEXT) {
            this.closeParagraph();
            this.closeContainers(matched);
            return this.open(kind, pos, first, end, line);
          }
        }
        return this.lazyLine(pos, end);
      }
      if (blank) {
        this.closeParagraph();
        return true;
      }
      if (indent >= 4) return this.continueParagraph(pos, end);
      const level = setextLevel(src, first, end);
      if (level > 0) return !this.inQuote() && this.setext(level);
      const kind = this.kindAt(first, end);
      if (kind === DECLINE) return false;
      // An ordered item numbered other than 1 interrupts no paragraph: the line is its text.
      if (kind === ORDERED && !this.orderedInterrupts(first)) {
        if (this.orderedOne(first)) return false;
      } else if (kind !== TEXT) {
        this.closeParagraph();
        return this.open(kind, pos, first, end, line);
      }
      const table = this.tableAt(first, end, line);
      if (table !== 0) return table > 0;
      return this.continueParagraph(pos, end);
    }
    if (this.table) {
      if (blank) {
        this.table = false;
        return true;
      }
      // Indented code after a table.
      if (indent >= 4) return false;
      const kind = this.kindAt(first, end);
      if (kind === TEXT) return this.row(first, end, line, false);
      if (kind === COMMENT || kind === DECLINE) return false;
      this.table = false;
      return this.open(kind, pos, first, end, line);
    }
    this.closeContainers(matched);
    if (blank) return true;
    // Indented code.
    if (indent >= 4) return false;
    return this.open(this.kindAt(first, end), pos, first, end, line);
  }

  /** Open the block `kind` whose text starts at `first`, on a line whose containers end at `pos`. */
  private open(kind: number, pos: number, first: number, end: number, line: number): boolean {
    // A block quote holds only paragraphs here.
    if (kind !== TEXT && this.inQuote()) return false;
    const { src } = this;
    switch (kind) {
      case TEXT:
        return this.text(first, end, line, false);
      case HEADING:
        this.endsList();
        atxHeading(src, first, end, line, this.column(first), this.sink);
        return true;
      case FENCE: {
        this.endsList();
        const marker = src.charCodeAt(first);
        let after = first;
        while (src.charCodeAt(after) === marker) after += 1;
        this.fence = { marker, length: after - first, strip: first - pos, lines: [] };
        return true;
      }
      case QUOTE: {
        if (this.depth > 0) return false;
        this.endsList();
        this.sink.openQuote();
        this.openContainer(true, 0);
        let text = first + 1;
        const after = src.charCodeAt(text);
        if (after === SPACE) text += 1;
        else if (after === TAB) return false;
        let inside = text;
        while (inside < end && src.charCodeAt(inside) === SPACE) inside += 1;
        if (inside === end) return true;
        if (src.charCodeAt(inside) === TAB || inside - text >= 4 || this.kindAt(inside, end) !== TEXT) return false;
        return this.text(inside, end, line, false);
      }
      case BREAK:
        this.endsList();
        this.sink.thematicBreak();
        return true;
      case BULLET:
      case ORDERED:
        return this.openItem(kind, first, end, line);
      case COMMENT: {
        this.endsList();
        const html = { line, column: this.column(first), lines: [] };
        this.html = html;
        // The comment may end on its first line, after its opening.
        return this.htmlLine(html, pos, end, first + 4);
      }
      default:
        return false;
    }
  }

  private openItem(kind: number, first: number, end: number, line: number): boolean {
    const { src, lineStart } = this;
    if (this.depth >= MAX_CONTAINERS) return false;
    let after = first;
    while (isDigit(src.charCodeAt(after))) after += 1;
    // The marker: `-`, `+` or `*`, or the digits' `.` or `)`; an ordered list is also told by its delimiter.
    const marker = kind === BULLET ? src.charCodeAt(first) : 0x100 + src.charCodeAt(after);
    after += 1;
    let text = after;
    while (src.charCodeAt(text) === SPACE) text += 1;
    const parent = this.innermost();
    const continues = (parent ? parent.lastList : this.rootList) === marker;
    if (parent) parent.lastList = marker;
    else this.rootList = marker;
    this.sink.openItem(kind === ORDERED, !continues, line, this.column(first));
    this.openContainer(false, text - lineStart);
    // The item's first line holds its first paragraph's first line, and nothing else opens there.
    if (this.kindAt(text, end) !== TEXT) return false;
    return this.text(text, end, line, true);
  }

  /** A block other than a list item starts in the innermost container: no later item continues a list there. */
  private endsList(): void {
    const parent = this.innermost();
    if (parent) parent.lastList = -1;
    else this.rootList = -1;
  }

  private innermost(): Container | undefined {
    return this.depth > 0 ? this.containers[this.depth - 1] : undefined;
  }

  private openContainer(quote: boolean, content: number): void {
    const container = this.containers[this.depth];
    if (container) {
      container.quote = quote;
      container.content = content;
      container.lastList = -1;
    } else this.containers.push({ quote, content, lastList: -1 });
    this.depth += 1;
  }

  /** What the line opens at `first`, where its text starts (at most three columns in). */
  private kindAt(first: number, end: number): number {
    const { src } = this;
    const char = src.charCodeAt(first);
    switch (char) {
      case 0x23: {
        let after = first + 1;
        while (after < end && src.charCodeAt(after) === 0x23) after += 1;
        if (after - first > 6) return TEXT;
        const next = src.charCodeAt(after);
        if (after === end || next === SPACE) return HEADING;
        return next === TAB ? DECLINE : TEXT;
      }
      case 0x60:
      case 0x7e: {
        let after = first + 1;
        while (after < end && src.charCodeAt(after) === char) after += 1;
        if (after - first < 3) return TEXT;
        // A backtick in a backtick fence's info string makes it no fence: inline code, left to markdown-it.
        const backtick = char === 0x60 ? src.indexOf('`', after) : -1;
        return backtick !== -1 && backtick < end ? DECLINE : FENCE;
      }
      case 0x3e:
        return QUOTE;
      case 0x2a:
      case 0x2d:
      case 0x5f:
        if (isThematicBreak(src, first, end, char)) return BREAK;
        return char === 0x5f ? TEXT : listMarker(src, first + 1, end, BULLET);
      case 0x2b:
        return listMarker(src, first + 1, end, BULLET);
      case 0x3c: {
        if (src.startsWith('<!--', first)) {
          // `<!-->` and `<!--->` end where they open: left to markdown-it.
          const close = src.indexOf('-->', first + 2);
          return close === first + 2 || close === first + 3 ? DECLINE : COMMENT;
        }
        return opensHtmlBlock(src.slice(first, end)) ? DECLINE : TEXT;
      }
      default: {
        if (!isDigit(char)) return TEXT;
        let after = first + 1;
        while (after < end && after - first < 10 && isDigit(src.charCodeAt(after))) after += 1;
        const delimiter = src.charCodeAt(after);
        if (after - first > 9 || (delimiter !== 0x2e && delimiter !== 0x29)) return TEXT;
        return listMarker(src, after + 1, end, ORDERED);
      }
    }
  }

  /** Whether the ordered marker at `first` may interrupt a paragraph: its number is `1` itself. */
  private orderedInterrupts(first: number): boolean {
    const next = this.src.charCodeAt(first + 1);
    return this.src.charCodeAt(first) === 0x31 && (next === 0x2e || next === 0x29);
  }

  /** Whether the ordered marker at `first` numbers 1 with more digits (`01.`): parsers tell these apart differently. */
  private orderedOne(first: number): boolean {
    let at = first;
    while (this.src.charCodeAt(at) === 0x30) at += 1;
    return at > first && this.src.charCodeAt(at) === 0x31 && !isDigit(this.src.charCodeAt(at + 1));
  }

  /**
   * Whether the line at `first` is a GFM table's header, with the next line its delimiter row:
   * 1 when it is, and the table is open with its header read; 0 when it is not; -1 when it may
   * be and the reader cannot tell (a table in a container, a tab in the row's indent).
   */
  private tableAt(first: number, end: number, line: number): number {
    const { src } = this;
    const next = end + 1;
    // Almost every next line fails on its first character past its indent, before its end is looked for.
    if (this.depth > 0) return this.nextMayBeDelimiter(end) ? -1 : 0;
    let delimiter = next;
    while (src.charCodeAt(delimiter) === SPACE) delimiter += 1;
    const char = src.charCodeAt(delimiter);
    if (char !== 0x7c && char !== 0x3a && char !== 0x2d && char !== TAB) return 0;
    const newline = src.indexOf('\n', next);
    const nextEnd = newline === -1 ? src.length : newline;
    if (char === TAB) return onlyWhitespace(src, delimiter, nextEnd) ? 0 : -1;
    if (delimiter - next >= 4 || !mayOpenDelimiter(src, delimiter, nextEnd)) return 0;
    if (!opensTable(src.slice(first, end), src.slice(delimiter, nextEnd))) return 0;
    this.closeParagraph();
    this.endsList();
    this.table = true;
    this.row(first, end, line, true);
    this.skipLine = true;
    return 1;
  }

  /** Whether the line after the one ending at `end` may be a delimiter row, past any container markers. */
  private nextMayBeDelimiter(end: number): boolean {
    const { src } = this;
    const next = end + 1;
    let at = next;
    let char = src.charCodeAt(at);
    while (char === SPACE || char === TAB || char === 0x3e) char = src.charCodeAt((at += 1));
    if (char !== 0x7c && char !== 0x3a && char !== 0x2d) return false;
    const newline = src.indexOf('\n', next);
    const nextEnd = newline === -1 ? src.length : newline;
    return mayOpenDelimiter(src, at, nextEnd) && isDelimiterRow(src.slice(at, nextEnd));
  }

  private row(first: number, end: number, line: number, header: boolean): boolean {
    this.sink.tableRow(this.src.slice(first, end), line, this.column(first), header);
    return true;
  }

  /** A line of text at `first` that no open paragraph takes: a table's header, or a paragraph's first line. */
  private text(first: number, end: number, line: number, firstOfItem: boolean): boolean {
    const table = this.tableAt(first, end, line);
    if (table !== 0) return table > 0;
    const { src } = this;
    // A bracket that may open a link reference definition: left to markdown-it.
    if (src.charCodeAt(first) === 0x5b && mayOpenDefinition(src, first, end)) return false;
    if (!firstOfItem) this.endsList();
    const open = this.openParagraph;
    open.line = line;
    open.column = this.column(first);
    open.inContainer = this.depth > 0;
    open.lines = undefined;
    open.from = first;
    open.to = end;
    open.first = firstOfItem;
    this.paragraph = open;
    return true;
  }

  private continueParagraph(pos: number, end: number): boolean {
    const open = this.paragraph;
    if (open?.inContainer) this.addLine(open, pos, end);
    else if (open) open.to = end;
    return true;
  }

  /** A lazy continuation line from `pos`, past the containers it is still in; a table's header it may be is left to markdown-it. */
  private lazyLine(pos: number, end: number): boolean {
    const open = this.paragraph;
    // Only a container's paragraph has lazy lines.
    if (!open?.inContainer || this.nextMayBeDelimiter(end)) return false;
    this.addLine(open, pos, end);
    return true;
  }

  /** A line from `pos` of a paragraph in a container, after the first. */
  private addLine(open: OpenParagraph, pos: number, end: number): void {
    const { src } = this;
    if (open.lines === undefined) open.lines = [src.slice(open.from, open.to), src.slice(pos, end)];
    else open.lines.push(src.slice(pos, end));
  }

  private closeParagraph(): void {
    const open = this.paragraph;
    if (!open) return;
    this.paragraph = undefined;
    this.sink.paragraph(this.content(open), open.line, open.column, open.first);
  }

  /** The open paragraph becomes a setext heading of `level`. */
  private setext(level: number): boolean {
    const open = this.paragraph;
    if (!open) return false;
    this.paragraph = undefined;
    this.sink.heading(level, this.content(open), open.line, open.column);
    return true;
  }

  /** A paragraph's inline content, as markdown-it trims it. */
  private content(open: OpenParagraph): string {
    return asciiTrim(open.lines ? open.lines.join('\n') : this.src.slice(open.from, open.to));
  }

  private fenceLine(fence: OpenFence, pos: number, first: number, end: number): boolean {
    const { src } = this;
    if (first - pos <= 3 && src.charCodeAt(first) === fence.marker) {
      let after = first;
      while (src.charCodeAt(after) === fence.marker) after += 1;
      if (after - first >= fence.length && onlyWhitespace(src, after, end)) {
        this.closeFence();
        return true;
      }
    }
    // Up to the opening fence's indent is dropped from each line (a tab there would count columns).
    let at = pos;
    while (at - pos < fence.strip && src.charCodeAt(at) === SPACE) at += 1;
    if (at - pos < fence.strip && src.charCodeAt(at) === TAB) return false;
    fence.lines.push(src.slice(at, end));
    return true;
  }

  private closeFence(): void {
    const fence = this.fence;
    if (!fence) return;
    this.fence = undefined;
    this.sink.code(fence.lines.join('\n'));
  }

  /** A line of an open HTML comment, its containers' markers dropped; it ends at the line holding `-->` past `from`. */
  private htmlLine(html: OpenHtml, pos: number, end: number, from = pos): boolean {
    const { src } = this;
    html.lines.push(src.slice(pos, end));
    const close = src.indexOf('-->', from);
    if (close !== -1 && close < end) {
      this.html = undefined;
      this.sink.html(html.lines.join('\n'), html.line, html.column);
    }
    return true;
  }

  private closeContainers(keep: number): void {
    for (let open = this.depth; open > keep; open -= 1) this.sink.closeContainer();
    this.depth = Math.min(this.depth, keep);
  }

  private finish(): boolean {
    this.closeParagraph();
    this.closeFence();
    // A comment never closed keeps or drops its last line ending as markdown-it's tree decides.
    return this.html === undefined;
  }

  private inQuote(): boolean {
    return this.depth > 0 && (this.containers[0] as Container).quote;
  }

  /** The 1-based column of `offset` in the line being read. */
  private column(offset: number): number {
    return offset - this.lineStart + 1;
  }
}

/** A list marker's kind, from the character after it: `kind` followed by text, else what it is not. */
function listMarker(src: string, after: number, end: number, kind: number): number {
  if (after === end) return DECLINE;
  const next = src.charCodeAt(after);
  if (next === TAB) return DECLINE;
  if (next !== SPACE) return TEXT;
  let text = after;
  while (text < end && src.charCodeAt(text) === SPACE) text += 1;
  // An empty item, or one whose text is indented code.
  if (text === end || text - after > 4 || src.charCodeAt(text) === TAB) return DECLINE;
  return kind;
}

function isThematicBreak(src: string, first: number, end: number, marker: number): boolean {
  let count = 0;
  for (let at = first; at < end; at += 1) {
    const char = src.charCodeAt(at);
    if (char === marker) count += 1;
    else if (char !== SPACE && char !== TAB) return false;
  }
  return count >= 3;
}

/** A setext underline's heading level at `first` (1 for `=`, 2 for `-`), or 0. */
function setextLevel(src: string, first: number, end: number): number {
  const marker = src.charCodeAt(first);
  if (marker !== 0x3d && marker !== 0x2d) return 0;
  let at = first + 1;
  while (at < end && src.charCodeAt(at) === marker) at += 1;
  if (!onlyWhitespace(src, at, end)) return 0;
  return marker === 0x3d ? 1 : 2;
}

/** An ATX heading as markdown-it reads it, given to `sink`: its closing sequence dropped, its text trimmed. */
function atxHeading(src: string, first: number, end: number, line: number, column: number, sink: BlockSink): void {
  let pos = first;
  while (pos < end && src.charCodeAt(pos) === 0x23) pos += 1;
  const depth = pos - first;
  let max = end;
  while (max > pos && (src.charCodeAt(max - 1) === SPACE || src.charCodeAt(max - 1) === TAB)) max -= 1;
  let hashes = max;
  while (hashes > pos && src.charCodeAt(hashes - 1) === 0x23) hashes -= 1;
  if (hashes > pos && (src.charCodeAt(hashes - 1) === SPACE || src.charCodeAt(hashes - 1) === TAB)) max = hashes;
  sink.heading(depth, asciiTrim(src.slice(pos, max)), line, column);
}

/** Whether a line could be a table's delimiter row from `at` (past its indent): markdown-it's first test. */
function mayOpenDelimiter(src: string, at: number, end: number): boolean {
  if (at >= end) return false;
  const char = src.charCodeAt(at);
  if (char === 0x2d) {
    const next = src.charCodeAt(at + 1);
    return next !== SPACE && next !== TAB;
  }
  return char === 0x7c || char === 0x3a;
}

/**
 * Whether a line opening with `[` at `first` may be a link reference definition: its label, on
 * this line, ends in `]:`, or runs past the line. A `[` inside the label, or a `]` no colon
 * follows (a task's `[ ]`, a link), rules one out.
 */
function mayOpenDefinition(src: string, first: number, end: number): boolean {
  for (let at = first + 1; at < end; at += 1) {
    const char = src.charCodeAt(at);
    if (char === 0x5b) return false;
    if (char === 0x5d) return src.charCodeAt(at + 1) === 0x3a;
    if (char === 0x5c) at += 1;
  }
  return true;
}

const BLOCK_NAMES = new Set(htmlBlockNames);
const RAW_NAMES = new Set(htmlRawNames);
// A tag alone on its line (an HTML block of CommonMark's kind 7), spaces and tabs its only whitespace.
const ATTRIBUTE = `[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \\t]*=[ \\t]*(?:[^ \\t"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?`;
const LONE_TAG = new RegExp(`^(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*[ \\t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \\t]*>)[ \\t]*$`);
// Whitespace other than spaces and tabs, which the readers' HTML patterns judge differently.
const OTHER_SPACE = /[^\S \t]/;
const TAG_NAME = /^<\/?([A-Za-z][A-Za-z0-9-]*)/;

/**
 * Whether a line's text (past its indent, opening with `<` but no comment) opens an HTML block:
 * `<!` or `<?`, a raw or block tag name, a tag alone on the line, or whitespace the patterns
 * would judge as markdown-it and micromark do not. Such lines are left to markdown-it; any other
 * (`<describe the boundary>: <control>`, `< 5 ms`) is text.
 */
function opensHtmlBlock(text: string): boolean {
  const next = text.charCodeAt(1);
  if (next === 0x21 || next === 0x3f) return true;
  const name = TAG_NAME.exec(text);
  if (!name) return false;
  if (OTHER_SPACE.test(text)) return true;
  const after = text.charCodeAt(name[0].length);
  const ends = Number.isNaN(after) || after === SPACE || after === TAB || after === 0x3e || (after === 0x2f && text.charCodeAt(name[0].length + 1) === 0x3e);
  const lower = (name[1] as string).toLowerCase();
  if (ends && (BLOCK_NAMES.has(lower) || (RAW_NAMES.has(lower) && next !== 0x2f))) return true;
  return LONE_TAG.test(text);
}

/** A block's text without the spaces, tabs and line endings at its ends, as markdown-it trims it (other whitespace stays). */
function asciiTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiTrimmable(text.charCodeAt(start))) start += 1;
  while (end > start && isAsciiTrimmable(text.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isAsciiTrimmable(code: number): boolean {
  return code === SPACE || code === TAB || code === 0x0a || code === 0x0d;
}

function onlyWhitespace(src: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const char = src.charCodeAt(at);
    if (char !== SPACE && char !== TAB) return false;
  }
  return true;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

