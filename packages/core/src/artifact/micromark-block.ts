import markdownIt, { type Env, type MarkdownIt, type StateBlock, type Token } from 'markdown-it';
import { gfmTable, mayOpenTable } from './gfm-table.js';
import { readInlineAsMicromark, type InlineEnv } from './micromark-inline.js';

/**
 * Nesting levels, as markdown-it counts them (a list and its item are two, a block quote one),
 * past which the rest of a container is not parsed. No real spec comes near it; a line of
 * thousands of nested list markers stops here instead of costing minutes.
 */
export const MAX_NESTING = 100;

/** What a parse carries besides tokens. */
export interface ParseEnv extends Env, InlineEnv {
  /** Where each line of the parsed source starts, for columns: filled by the parse, from the same pass that finds markdown-it's lines. */
  readonly starts: number[];
  /** The first line past {@link MAX_NESTING} whose content was not read, if any. */
  truncatedAt?: number;
  /** A line that interrupts an open block, while the containers it opens are read. */
  interruptLine?: number;
  /** The content indent around each list being read, `-1` for each block quote (which resets indents). */
  containers?: number[];
}

// Built on first use: a process that finds every artifact in its cache never pays for it.
let reader: MarkdownIt | undefined;

/**
 * markdown-it reading CommonMark and GFM tables as micromark (remark-parse) reads them. Block
 * tokens carry their start column in `meta.column`. Each adjustment below is one place where
 * the two parsers were found to differ, by the test that compares them.
 */
export function markdownReader(): MarkdownIt {
  if (reader) return reader;
  // Link text keeps its source spelling, as in mdast (markdown-it would decode it for display).
  const md = markdownIt('commonmark', { maxNesting: MAX_NESTING }).enable('table');
  md.normalizeLinkText = (url) => url;
  // mdast keeps every destination as written, `javascript:` included; none is needed here.
  md.normalizeLink = (url) => url;
  md.validateLink = () => true;
  md.helpers.parseLinkTitle = (str, start, max, previous) => linkTitle(md, str, start, max, previous);
  md.block.ruler.at('table', gfmTable, { alt: ['paragraph', 'reference'] });
  for (const rule of [...md.block.ruler.__rules__]) replaceBlockRule(md, rule.name, (original) => withColumns(original));
  replaceBlockRule(md, 'reference', (original) => (state, startLine, endLine, silent) => definitions(md, original, state, startLine, endLine, silent));
  for (const name of ['blockquote', 'list']) replaceBlockRule(md, name, (original) => (state, startLine, endLine, silent) => interrupting(name, original, state, startLine, endLine, silent));
  replaceBlockRule(md, 'table', (table) => (state, startLine, endLine, silent) => mayOpenTable(state, startLine, endLine) && table(state, startLine, endLine, true) && !leavesTable(state, startLine) && !startsOtherBlock(md, state, startLine, endLine) && (silent || table(state, startLine, endLine, false)));
  replaceBlockRule(md, 'code', indentedCode);
  for (const name of ['blockquote', 'list']) replaceBlockRule(md, name, (original) => (state, startLine, endLine, silent) => tracked(name, original, state, startLine, endLine, silent));
  replaceBlockRule(md, 'paragraph', continuationLinesAsMicromark);
  replaceBlockRule(md, 'paragraph', (paragraph) => (state, startLine, endLine, silent) => lazyTableHeaders(md, paragraph, state, startLine, endLine, silent));
  replaceBlockRule(md, 'html_block', htmlWithAsciiSpaces);
  // Last, so that a rule and its wrappers are entered only on a line its block can start on.
  for (const name of Object.keys(FIRST_CHARACTERS)) replaceBlockRule(md, name, (original) => startingAt(name, original));
  const State = md.block.State;
  md.block.State = function (src: string, parser: MarkdownIt, env: ParseEnv, tokens: Token[]) {
    return blockState(new State('', parser, env, tokens), src);
  } as unknown as typeof State;
  const tokenize = md.block.tokenize.bind(md.block);
  md.block.tokenize = (state: StateBlock, startLine: number, endLine: number) => {
    // The test markdown-it makes before it drops the rest of a container that nests too deep.
    const line = state.skipEmptyLines(startLine);
    const env = state.env as ParseEnv;
    if (line < endLine && (state.sCount[line] ?? 0) >= state.blkIndent && state.level >= MAX_NESTING) env.truncatedAt ??= line;
    tokenize(state, startLine, endLine);
  };
  readInlineAsMicromark(md);
  reader = md;
  return md;
}

type LinkTitle = ReturnType<MarkdownIt['helpers']['parseLinkTitle']>;

/**
 * A link title, in a definition or an inline link, read as micromark reads it: one in
 * parentheses ends at the first `)` not escaped, whatever `(` it holds (markdown-it, as
 * CommonMark's text says, refuses a `(` not escaped there). `previous` is the title read so far
 * when it runs over a line ending.
 */
function linkTitle(md: MarkdownIt, str: string, start: number, max: number, previous?: LinkTitle): LinkTitle {
  const title: LinkTitle = { ok: false, can_continue: false, pos: 0, str: previous?.str ?? '', marker: previous?.marker ?? 0 };
  let from = start;
  if (!previous) {
    const marker = from < max ? str.charCodeAt(from) : 0;
    if (marker !== 0x22 && marker !== 0x27 && marker !== 0x28) return title;
    title.marker = marker === 0x28 ? 0x29 : marker;
    from += 1;
  }
  for (let at = from; at < max; at += 1) {
    const code = str.charCodeAt(at);
    if (code === title.marker) {
      title.pos = at + 1;
      title.str += md.utils.unescapeAll(str.slice(from, at));
      title.ok = true;
      return title;
    }
    if (code === 0x5c && at + 1 < max) at += 1;
  }
  title.can_continue = true;
  title.str += md.utils.unescapeAll(str.slice(from, max));
  return title;
}

/**
 * markdown-it's block state over `src`, its lines as markdown-it's constructor finds them
 * (`empty` is that state over no text), found a line at a time: the constructor looks at every
 * character in turn, a search for the line's end is several times faster. A last line of only
 * spaces and tabs is no line, as there. Where every line starts, that one and the empty line after
 * a final line ending included, goes to the parse's `starts` from the same pass.
 */
export function blockState(empty: StateBlock, src: string): StateBlock {
  const bMarks: number[] = [];
  const eMarks: number[] = [];
  const tShift: number[] = [];
  const sCount: number[] = [];
  const bsCount: number[] = [];
  const starts = (empty.env as ParseEnv).starts;
  starts.length = 0;
  const length = src.length;
  let start = 0;
  while (start < length) {
    starts.push(start);
    let at = start;
    let columns = 0;
    for (let char = src.charCodeAt(at); char === 0x20 || char === 0x09; char = src.charCodeAt(at)) {
      columns += char === 0x09 ? 4 - (columns % 4) : 1;
      at += 1;
    }
    if (at === length) break;
    const lineEnd = src.indexOf('\n', at);
    const end = lineEnd === -1 ? length : lineEnd;
    bMarks.push(start);
    eMarks.push(end);
    tShift.push(at - start);
    sCount.push(columns);
    bsCount.push(0);
    start = end + 1;
  }
  if (start === length) starts.push(length);
  bMarks.push(length);
  eMarks.push(length);
  tShift.push(0);
  sCount.push(0);
  bsCount.push(0);
  empty.src = src;
  empty.bMarks = bMarks;
  empty.eMarks = eMarks;
  empty.tShift = tShift;
  empty.sCount = sCount;
  empty.bsCount = bsCount;
  empty.lineMax = bMarks.length - 1;
  return empty;
}

/** A block token's start column, 1-based. */
export function columnOf(token: Token | undefined): number {
  const column = token?.meta?.['column'];
  return typeof column === 'number' ? column : 1;
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/**
 * What each of these blocks opens with, past the line's indent: markdown-it's rule returns
 * false, having changed nothing, on a line that opens with anything else.
 */
const FIRST_CHARACTERS: Readonly<Record<string, string>> = {
  fence: '`~',
  blockquote: '>',
  hr: '*-_',
  list: '*+-0123456789',
  reference: '[',
  html_block: '<',
  heading: '#',
};

/**
 * A rule entered only on a line that opens with a character its block can open with. Every rule
 * is tried at every block start and the interrupting ones at every line of a paragraph, each
 * through the wrappers here: almost every line opens with a letter and needs none of them. What
 * the list and block quote rules record of the line they are tried on (whether it would interrupt
 * an open block) is recorded here, whether a rule is entered or not.
 */
function startingAt(name: string, rule: BlockRule): BlockRule {
  const opens = new Uint8Array(128);
  for (const char of FIRST_CHARACTERS[name] ?? '') opens[char.charCodeAt(0)] = 1;
  // The block quote rule is tried on every line the list rule is, right before it: it records
  // for both.
  const records = name === 'blockquote';
  const thematic = name === 'hr';
  return (state, startLine, endLine, silent) => {
    if (records && !silent && followsOpenBlock(state, startLine)) (state.env as ParseEnv).interruptLine = startLine;
    const at = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
    return opens[state.src.charCodeAt(at)] === 1 && (!thematic || markerRepeats(state, startLine, at)) && rule(state, startLine, endLine, silent);
  };
}

/**
 * Whether the first character past the marker at `at` and the spaces and tabs after it is the
 * marker again. A thematic break is nothing but three or more of one marker and spaces or tabs,
 * and markdown-it's rule returns false, having changed nothing, on a line where it is not: a list
 * item (`- [ ] task`), which every line of a list is tried for several times, never is.
 */
function markerRepeats(state: StateBlock, line: number, at: number): boolean {
  const { src } = state;
  const end = state.eMarks[line] ?? 0;
  let next = at + 1;
  while (next < end && (src.charCodeAt(next) === 0x20 || src.charCodeAt(next) === 0x09)) next += 1;
  return next < end && src.charCodeAt(next) === src.charCodeAt(at);
}

function replaceBlockRule(md: MarkdownIt, name: string, wrap: (original: BlockRule) => BlockRule): void {
  const rule = md.block.ruler.__rules__.find((candidate) => candidate.name === name);
  if (!rule) throw new Error(`markdown-it has no block rule "${name}"`);
  md.block.ruler.at(name, wrap(rule.fn), { alt: rule.alt });
}

// The rules as finally configured, looked up by name while parsing.
const rulesOf = new WeakMap<MarkdownIt, ReadonlyMap<string, BlockRule>>();

function blockRule(md: MarkdownIt, name: string): BlockRule {
  let rules = rulesOf.get(md);
  if (!rules) {
    rules = new Map(md.block.ruler.__rules__.map((rule) => [rule.name, rule.fn]));
    rulesOf.set(md, rules);
  }
  const rule = rules.get(name);
  if (!rule) throw new Error(`markdown-it has no block rule "${name}"`);
  return rule;
}

/**
 * markdown-it records the lines of a block, not its column. Right after a block rule matched,
 * the line's marks still point where that rule found its block (past any block quote marker
 * or list indent), so each new token's start column is read then.
 */
function withColumns(rule: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    // A line a block quote let in lazily (markdown-it marks it with sCount -1) starts no block
    // when indented as code: it continues the paragraph, however deep the quotes.
    if (silent && (state.sCount[startLine] ?? 0) < 0 && indentOf(state, startLine) >= 4) return false;
    // So does a line too little indented for the list item being read when it is indented as
    // code past the containers it still belongs to (`1.   word` over `    # h`).
    if (silent && underIndented(state, startLine)) return false;
    const from = state.tokens.length;
    const matched = rule(state, startLine, endLine, silent);
    if (matched && !silent) markColumns(state, from);
    return matched;
  };
}

/**
 * Link reference definitions as micromark reads them: definitions and the lines right after
 * them are one run of paragraph content. A line there that cannot interrupt a paragraph (an
 * empty list item, `2.`, indented text) continues it, and a setext heading made of it starts
 * where the run started. markdown-it would begin a fresh block after each definition.
 */
function definitions(md: MarkdownIt, reference: BlockRule, state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent) return reference(state, startLine, endLine, true);
  if (!definition(reference, state, startLine, endLine)) return false;
  const run = { line: startLine, column: columnOf(state.tokens[state.tokens.length - 1]) };
  for (;;) {
    const next = state.line;
    if (next >= endLine || state.isEmpty(next)) return true;
    // A line outside the container (no `>`, too little indent) that starts nothing else
    // continues the content, lazily. (Block quotes have vetted their lazy lines already.)
    const indent = state.sCount[next] ?? 0;
    const lazy = indent < state.blkIndent;
    if (lazy && lazyHeaderOpensTable(md, state, next, endLine)) {
      // The header of a table in the container (see lazyTableHeaders).
      state.sCount[next] = state.blkIndent;
      return true;
    }
    if (lazy && indent >= 0 && interruptsParagraph(md, state, next, endLine)) return true;
    // As paragraph content the line may be indented any amount, and is another definition
    // wherever it reads as one; markdown-it's rules would take an indented line for code, so
    // they are shown it at the paragraph's indent.
    state.sCount[next] = Math.min(indent, state.blkIndent);
    const another = definition(reference, state, next, endLine);
    state.sCount[next] = indent;
    if (another) continue;
    if (lazy) {
      blockRule(md, 'paragraph')(state, next, endLine, false);
      return true;
    }
    if (interruptsParagraph(md, state, next, endLine)) return true;
    const continued = state.tokens.length;
    state.sCount[next] = Math.min(indent, state.blkIndent);
    const heading = blockRule(md, 'lheading')(state, next, endLine, false);
    state.sCount[next] = indent;
    if (!heading) blockRule(md, 'paragraph')(state, next, endLine, false);
    // A line that looks like a setext underline (`- `) starts content of its own instead.
    const opened = state.tokens[continued];
    if (opened?.type === 'heading_open' && !SETEXT_UNDERLINE.test(lineText(state, next))) opened.meta = { line: run.line, column: run.column };
    return true;
  }
}

/**
 * One definition at `line`, kept only if it stands: a setext underline among the lines it
 * would take makes a heading of the lines above it instead (micromark finds underlines before
 * it reads definitions). Nothing is left behind when it does not stand.
 */
function definition(reference: BlockRule, state: StateBlock, line: number, endLine: number): boolean {
  if (!mayOpenDefinition(state, line)) return false;
  const [tokens, known] = [state.tokens.length, state.env.references];
  state.env.references = {};
  let matched = reference(state, line, endLine, false);
  // markdown-it drops the whole definition when an empty title (`''`) on a later line has text
  // after it; without that line it stands, as in micromark. The destination is on the first or
  // second line, so the definition is tried again with the document cut short after each.
  const lineMax = state.lineMax;
  for (let end = line + 1; !matched && end < Math.min(lineMax, line + 3); end += 1) {
    state.lineMax = end;
    matched = reference(state, line, end, false);
    state.lineMax = lineMax;
  }
  const found = state.env.references;
  if (known) state.env.references = known;
  else delete state.env.references;
  if (!matched) return false;
  if (spansSetextUnderline(state, line, state.line)) {
    state.tokens.length = tokens;
    state.line = line;
    return false;
  }
  for (const [label, value] of Object.entries(found)) if (state.env.references?.[label] === undefined) (state.env.references ??= {})[label] = value;
  return true;
}

/**
 * False when the line's label already fails markdown-it's definition rule, however many lines
 * it may read: a `[` inside it, or a `]` ending it that no `:` follows (a task item's `[ ]`, a
 * link). Escaped characters are skipped as the rule skips them; a label running past the line
 * is left to the rule.
 */
function mayOpenDefinition(state: StateBlock, line: number): boolean {
  const src = state.src;
  const end = state.eMarks[line] ?? 0;
  for (let at = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0) + 1; at < end; at += 1) {
    const char = src.charCodeAt(at);
    if (char === 0x5b) return false;
    if (char === 0x5d) return src.charCodeAt(at + 1) === 0x3a;
    if (char === 0x5c) at += 1;
  }
  return true;
}

const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;

/** Whether a line after `startLine`, before `endLine`, is a setext underline. */
function spansSetextUnderline(state: StateBlock, startLine: number, endLine: number): boolean {
  for (let line = startLine + 1; line < endLine; line += 1) {
    const indent = (state.sCount[line] ?? 0) - state.blkIndent;
    if (indent >= 0 && indent < 4 && SETEXT_UNDERLINE.test(lineText(state, line))) return true;
  }
  return false;
}

/** A line's text after its indent (and after the containers it is in). */
function lineText(state: StateBlock, line: number): string {
  return state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line]);
}

/**
 * Indented code as micromark ends it: a line of only spaces is still code when more than the
 * code indent is left on it (markdown-it counts it blank), and so are blank lines before it.
 */
function indentedCode(rule: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    // markdown-it's first test, before the wrappers: most lines are indented less.
    if ((state.sCount[startLine] ?? 0) - state.blkIndent < 4 || !rule(state, startLine, endLine, silent)) return false;
    if (silent) return true;
    const token = state.tokens[state.tokens.length - 1];
    let last = state.line;
    for (let line = state.line; line < endLine && state.isEmpty(line); line += 1) {
      if ((state.sCount[line] ?? 0) - state.blkIndent > 4) last = line + 1;
    }
    if (token?.type === 'code_block' && last > state.line) {
      token.content = state.getLines(startLine, last, 4 + state.blkIndent, false);
      if (token.map) token.map[1] = last;
      state.line = last;
    }
    return true;
  };
}

/** A list or block quote rule that records, while it reads, the indent its content is inside. */
function tracked(name: string, rule: BlockRule, state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent) return rule(state, startLine, endLine, silent);
  const containers = ((state.env as ParseEnv).containers ??= []);
  containers.push(name === 'list' ? state.blkIndent : -1);
  try {
    return rule(state, startLine, endLine, silent);
  } finally {
    containers.pop();
  }
}

/**
 * A paragraph's continuation lines as micromark keeps them, where only a code span or inline
 * HTML running over a line's start shows it. A lazy line (indented less than the paragraph's
 * list item) keeps the whitespace left after the list items it still belongs to, where
 * markdown-it drops up to the paragraph's own indent of it (`` `a\n b` `` keeps the space, and
 * so ends in a space, not a line ending, once the span's ends are stripped). The columns of a
 * tab left over past the indent are spaces in both, but micromark strips no such space from a
 * code span's end: their offsets in the content are recorded for the inline rules, and so is
 * the column each line starts at when a tab follows (inline HTML drops columns, not characters).
 */
function continuationLinesAsMicromark(rule: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    const from = state.tokens.length;
    const matched = rule(state, startLine, endLine, silent);
    const inline = state.tokens[from + 1];
    if (!matched || silent || inline?.type !== 'inline') return matched;
    const end = state.line;
    if (!mayKeepOtherWhitespace(state, startLine + 1, end)) return true;
    const starts: LineStart[] = [];
    let special = false;
    for (let line = startLine + 1; line < end; line += 1) {
      const count = state.sCount[line] ?? 0;
      const start = lineStart(state, line, count >= 0 && count < state.blkIndent ? enclosingIndent(state, line) : state.blkIndent);
      starts.push(start);
      special ||= start.indent !== state.blkIndent || start.leftOver > 0 || start.tab;
    }
    if (!special) return true;
    let content = state.getLines(startLine, startLine + 1, state.blkIndent, startLine + 1 < end);
    const leftOver: number[] = [];
    starts.forEach(({ indent, leftOver: columns }, index) => {
      const line = startLine + 1 + index;
      for (let column = columns; column > 0; column -= 1) leftOver.push(content.length + column - 1);
      content += state.getLines(line, line + 1, indent, line + 1 < end);
    });
    const trimmed = content.replace(/^[ \t\n\r]+/, '');
    inline.content = trimmed.replace(/[ \t\n\r]+$/, '');
    const shift = content.length - trimmed.length;
    const env = state.env as ParseEnv;
    if (leftOver.length > 0) (env.tabLeftOvers ??= new Map()).set(inline.content, new Set(leftOver.map((at) => at - shift)));
    if (starts.some((start) => start.tab)) (env.lineColumns ??= new Map()).set(inline.content, [0, ...starts.map((start) => start.column)]);
    return true;
  };
}

/**
 * A lazy continuation line right above a delimiter row of the paragraph's own container is that
 * table's header, and the table is in the container (`- a` over `b | c` over `  --|--`), as
 * micromark reads it. markdown-it leaves a list item at such a line, the table then read outside
 * it, and never asks a line a block quote let in lazily whether a table starts there. The line is
 * shown at the container's indent, so that the container keeps it for the table.
 */
function lazyTableHeaders(md: MarkdownIt, paragraph: BlockRule, state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent) return paragraph(state, startLine, endLine, true);
  const tokens = state.tokens.length;
  if (!paragraph(state, startLine, endLine, false)) return false;
  const end = state.line;
  for (let line = startLine + 1; line < end; line += 1) {
    if (state.sCount[line] !== -1 || !lazyHeaderOpensTable(md, state, line, endLine)) continue;
    // Read again, up to the table: the paragraph's inline token holds the lines it took.
    state.tokens.length = tokens;
    state.sCount[line] = state.blkIndent;
    return paragraph(state, startLine, endLine, false);
  }
  const count = state.sCount[end] ?? 0;
  if (end < endLine && count >= 0 && count < state.blkIndent && lazyHeaderOpensTable(md, state, end, endLine)) state.sCount[end] = state.blkIndent;
  return true;
}

/** Whether the lazy line `line` opens a table when read in the paragraph's container. */
function lazyHeaderOpensTable(md: MarkdownIt, state: StateBlock, line: number, endLine: number): boolean {
  if (!mayOpenTable(state, line, endLine)) return false;
  const [count, parentType] = [state.sCount[line] ?? 0, state.parentType];
  state.sCount[line] = state.blkIndent;
  state.parentType = 'paragraph';
  const opens = blockRule(md, 'table')(state, line, endLine, true);
  state.sCount[line] = count;
  state.parentType = parentType;
  return opens;
}

/**
 * False when every continuation line is indented at least as the paragraph and holds no tab in
 * its leading whitespace: then markdown-it's content is micromark's, as almost always.
 */
function mayKeepOtherWhitespace(state: StateBlock, from: number, to: number): boolean {
  for (let line = from; line < to; line += 1) {
    const count = state.sCount[line] ?? 0;
    if (count >= 0 && count < state.blkIndent) return true;
    const end = state.eMarks[line] ?? 0;
    for (let at = state.bMarks[line] ?? 0; at < end; at += 1) {
      const char = state.src.charCodeAt(at);
      if (char === 0x09) return true;
      if (char !== 0x20) break;
    }
  }
  return false;
}

interface LineStart {
  /** The indent markdown-it drops from the line. */
  readonly indent: number;
  /** How many columns of a tab past the indent markdown-it turns into spaces. */
  readonly leftOver: number;
  /** The column (0-based, in the whole line) the line's text starts at once the indent is dropped. */
  readonly column: number;
  /** Whether a tab is in the whitespace left at the start of that text. */
  readonly tab: boolean;
}

function lineStart(state: StateBlock, line: number, indent: number): LineStart {
  const start = state.bMarks[line] ?? 0;
  const [end, offset] = [state.eMarks[line] ?? 0, state.bsCount[line] ?? 0];
  let [at, columns] = [start, 0];
  while (at < end && columns < indent) {
    const char = state.src.charCodeAt(at);
    if (char === 0x09) columns += 4 - ((columns + offset) % 4);
    else if (char === 0x20 || at - start < (state.tShift[line] ?? 0)) columns += 1;
    else break;
    at += 1;
  }
  let tab = false;
  for (let rest = at; rest < end && !tab; rest += 1) {
    const char = state.src.charCodeAt(rest);
    if (char !== 0x20 && char !== 0x09) break;
    tab = char === 0x09;
  }
  return { indent, leftOver: Math.max(0, columns - indent), column: offset + Math.min(columns, indent), tab };
}

// Whitespace to markdown-it's HTML patterns (`\s`: no-break spaces, …) that is no space or tab.
const OTHER_SPACE = /[^\S \t]/g;

/**
 * An HTML block's opening line read as micromark reads it: only spaces and tabs separate a
 * tag's name, attributes and end (markdown-it takes any Unicode whitespace). A line holding
 * other whitespace is shown to markdown-it with `#` in its place: no tag allows it there, and
 * `<#` starts no block.
 */
function htmlWithAsciiSpaces(rule: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    // Entered only on a line that opens with `<` (see startingAt).
    const from = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
    const to = state.eMarks[startLine] ?? 0;
    const line = state.src.slice(from, to);
    OTHER_SPACE.lastIndex = 0;
    if (!OTHER_SPACE.test(line)) return rule(state, startLine, endLine, silent);
    const [src, count] = [state.src, state.tokens.length];
    state.src = src.slice(0, from) + line.replace(OTHER_SPACE, '#') + src.slice(to);
    try {
      return rule(state, startLine, endLine, silent);
    } finally {
      state.src = src;
      const token = state.tokens[count];
      if (token?.type === 'html_block' && token.map) token.content = state.getLines(token.map[0], token.map[1], state.blkIndent, true);
    }
  };
}

/**
 * The content indent of the innermost list item, inside the innermost block quote, that holds
 * the line; or, `outsideQuote`, inside the block quote around that one.
 */
function enclosingIndent(state: StateBlock, line: number, outsideQuote = false): number {
  const containers = (state.env as ParseEnv).containers ?? [];
  const indent = state.sCount[line] ?? 0;
  let enclosing = 0;
  let at = containers.length - 1;
  if (outsideQuote && containers[at] === -1) at -= 1;
  for (; at >= 0 && (containers[at] as number) >= 0; at -= 1) {
    const candidate = containers[at] as number;
    if (candidate <= indent && candidate > enclosing) enclosing = candidate;
  }
  return enclosing;
}

/**
 * Whether a line is indented less than the list item being read, so outside it, yet four or
 * more columns past the containers it still belongs to: there it would be indented code, which
 * interrupts no paragraph, so it can only be a lazy continuation line, as CommonMark defines them.
 */
function underIndented(state: StateBlock, line: number): boolean {
  const indent = state.sCount[line] ?? 0;
  if (indent < 4 || indent >= state.blkIndent) return false;
  // A block quote asks about a line without `>` while it gathers its lines (its own type the
  // parent): that line is judged outside the quote.
  return indent - enclosingIndent(state, line, state.parentType === 'blockquote') >= 4;
}

function interruptsParagraph(md: MarkdownIt, state: StateBlock, line: number, endLine: number): boolean {
  if ((state.sCount[line] ?? 0) - state.blkIndent > 3) return false;
  const parentType = state.parentType;
  state.parentType = 'paragraph';
  const interrupts = md.block.ruler.getRules('paragraph').some((rule) => rule(state, line, endLine, true));
  state.parentType = parentType;
  return interrupts;
}

// Blocks still open at the end of the line before, as their last token shows.
const OPEN_BEFORE = new Set(['paragraph_close', 'code_block', 'reference_definition']);

/**
 * micromark reads a line right after an open paragraph, definition or indented code (blank
 * lines between included) as interrupting it, and so is every container opened on that line: a list there
 * (`- -` under a paragraph, `-` under indented code) may not be empty nor start at another
 * number than 1. Such a line is paragraph text.
 */
function interrupting(name: string, rule: BlockRule, state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent && state.parentType === 'reference') {
    // A definition is paragraph content to micromark: what may not interrupt a paragraph (`10.`) does not end it.
    state.parentType = 'paragraph';
    try {
      return rule(state, startLine, endLine, silent);
    } finally {
      state.parentType = 'reference';
    }
  }
  if (silent) return rule(state, startLine, endLine, silent);
  // startingAt has recorded whether the line interrupts an open block.
  const env = state.env as ParseEnv;
  if (name === 'blockquote') return withIndentedMarkersAsText(state, startLine, endLine, () => rule(state, startLine, endLine, silent));
  if (env.interruptLine === startLine) {
    const parentType = state.parentType;
    state.parentType = 'paragraph';
    const allowed = rule(state, startLine, endLine, true);
    state.parentType = parentType;
    if (!allowed) return false;
  }
  return rule(state, startLine, endLine, silent);
}

/** Whether the block just read is still open at `line`, so that `line` would interrupt it. */
function followsOpenBlock(state: StateBlock, line: number): boolean {
  const tokens = state.tokens;
  const last = tokens[tokens.length - 1];
  if (!last || !OPEN_BEFORE.has(last.type)) return false;
  const end = (last.type === 'paragraph_close' ? tokens[tokens.length - 3] : last)?.map?.[1];
  if (last.type === 'code_block' && startsAfterClosedContainer(state)) return false;
  // Indented code stays open across blank lines, waiting for more indented lines.
  return end === line || (last.type === 'code_block' && end !== undefined && end < line && allBlank(state, end, line));
}

const CONTAINER_CLOSE = new Set(['blockquote_close', 'bullet_list_close', 'ordered_list_close']);

/**
 * micromark defect: indented code on the line that closes a list or block quote is a block of
 * that one line, closed at once (the lines after it start another). Whether the last token,
 * a code block, is such a line. (A blank line, not the code, closes a block quote.)
 */
function startsAfterClosedContainer(state: StateBlock): boolean {
  const tokens = state.tokens;
  const code = tokens[tokens.length - 1];
  const close = tokens[tokens.length - 2];
  if (!code?.map || code.map[1] - code.map[0] !== 1 || !close || !CONTAINER_CLOSE.has(close.type)) return false;
  const line = code.map[0];
  for (let at = tokens.length - 3; at >= 0; at -= 1) {
    const open = tokens[at] as Token;
    if (open.level !== close.level || open.nesting !== 1) continue;
    const end = open.map?.[1];
    // A list's blank lines may come before the code (markdown-it ends the list before them).
    if (open.type === 'blockquote_open') return end === line && !state.isEmpty(line - 1);
    return end !== undefined && end <= line && allBlank(state, end, line);
  }
  return false;
}

/**
 * A `>` indented four or more columns past the quote's own indent continues no block quote
 * (in CommonMark it is paragraph text or code); markdown-it's rule takes it for one. While the
 * rule runs, such lines are shown from their first column, where no `>` is.
 */
function withIndentedMarkersAsText(state: StateBlock, startLine: number, endLine: number, run: () => boolean): boolean {
  // Entered only on a line that opens with `>` (see startingAt): in a tight list, a look past
  // every item's first line would run to the list's end.
  const hidden: [number, number][] = [];
  // A blank line ends the quote: no line past it can continue it.
  for (let line = startLine + 1; line < endLine && !state.isEmpty(line); line += 1) {
    const shift = state.tShift[line] ?? 0;
    if ((state.sCount[line] ?? 0) - state.blkIndent >= 4 && state.src.charCodeAt((state.bMarks[line] ?? 0) + shift) === 0x3e) {
      hidden.push([line, shift]);
      state.tShift[line] = 0;
    }
  }
  try {
    return run();
  } finally {
    for (const [line, shift] of hidden) state.tShift[line] = shift;
  }
}

/**
 * Whether `line` comes right after a table row and leaves a list item or block quote the table
 * is in, opening none. micromark reads it as a lazy body row, which a table refuses, and then
 * as no table header either: it is paragraph text (`> a | b` and `> --|--` over `c | d` and `--|--`).
 */
function leavesTable(state: StateBlock, line: number): boolean {
  const tokens = state.tokens;
  let at = tokens.length - 1;
  while (at >= 0 && (CONTAINER_CLOSE.has((tokens[at] as Token).type) || (tokens[at] as Token).type === 'list_item_close')) at -= 1;
  if (at === tokens.length - 1 || tokens[at]?.type !== 'table_close') return false;
  while (at >= 0 && (tokens[at] as Token).type !== 'table_open') at -= 1;
  return tokens[at]?.map?.[1] === line;
}

// Blocks that a table's header line cannot be: GFM reads a table only where a paragraph would be.
// A line that reads as a link definition can be a header (micromark tries the table first).
const NOT_A_TABLE = ['fence', 'blockquote', 'hr', 'list', 'html_block', 'heading'];

/**
 * True when the line starts another block. markdown-it tries tables first, so `- a | b` above a
 * delimiter row would be a table; in GFM it is a list item. A line that would interrupt an open
 * block is judged as paragraph text: `2. a | b` there is a header.
 */
function startsOtherBlock(md: MarkdownIt, state: StateBlock, line: number, endLine: number): boolean {
  const parentType = state.parentType;
  if (followsOpenBlock(state, line) || (state.env as ParseEnv).interruptLine === line) state.parentType = 'paragraph';
  const other = NOT_A_TABLE.some((name) => blockRule(md, name)(state, line, endLine, true));
  state.parentType = parentType;
  return other;
}

function allBlank(state: StateBlock, from: number, to: number): boolean {
  for (let line = from; line < to; line += 1) if (!state.isEmpty(line)) return false;
  return true;
}

/** A line's indentation in columns (tabs to the next multiple of 4), from the line's start. */
function indentOf(state: StateBlock, line: number): number {
  const { starts } = state.env as ParseEnv;
  let columns = 0;
  for (let at = starts[line] ?? 0; at < state.src.length; at += 1) {
    const char = state.src.charCodeAt(at);
    if (char === 0x20) columns += 1;
    else if (char === 0x09) columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

function markColumns(state: StateBlock, from: number): void {
  const { starts } = state.env as ParseEnv;
  for (let i = from; i < state.tokens.length; i += 1) {
    const token = state.tokens[i] as Token;
    // An inline token's column is never read: its block's is.
    if (token.map === null || token.nesting < 0 || token.type === 'inline' || token.meta?.['column'] !== undefined) continue;
    const line = token.map[0];
    const column = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0) - (starts[line] ?? 0) + 1;
    // Almost every token has no meta yet: a plain object costs less than a spread of nothing.
    token.meta = token.meta ? { ...token.meta, column } : { column };
  }
}
