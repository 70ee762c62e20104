import type { Delimiter, MarkdownIt, StateInline } from 'markdown-it';

/** What the block rules tell the inline rules. */
export interface InlineEnv {
  /**
   * For the content of a paragraph holding them, the offsets of the spaces that stand for
   * columns of a tab left over past a continuation line's indent.
   */
  tabLeftOvers?: Map<string, ReadonlySet<number>>;
  /** For the content of a paragraph whose lines start with a tab, the column (0-based) each line starts at. */
  lineColumns?: Map<string, readonly number[]>;
}

/**
 * Inline parsing as micromark does it, where markdown-it differs: which emphasis delimiters may
 * open or close, how they pair, what a code span keeps, and what a line ending leaves.
 */
export function readInlineAsMicromark(md: MarkdownIt): void {
  md.inline.State = MicromarkFlanking(md.inline.State);
  md.inline.ruler.at('text', plainRun);
  const backtick = md.inline.ruler.__rules__.find((rule) => rule.name === 'backticks')?.fn;
  if (!backtick) throw new Error('markdown-it has no inline rule "backticks"');
  md.inline.ruler.at('backticks', (state: StateInline, silent: boolean) => codeSpan(backtick, state, silent));
  md.inline.ruler.at('newline', lineEnding);
  const escape = md.inline.ruler.__rules__.find((rule) => rule.name === 'escape')?.fn;
  if (!escape) throw new Error('markdown-it has no inline rule "escape"');
  md.inline.ruler.at('escape', (state: StateInline, silent: boolean) => backslash(escape, state, silent));
  for (const name of ['link', 'image']) {
    const rule = md.inline.ruler.__rules__.find((candidate) => candidate.name === name)?.fn;
    if (!rule) throw new Error(`markdown-it has no inline rule "${name}"`);
    md.inline.ruler.at(name, (state: StateInline, silent: boolean) => notShortcutBeforeBracket(rule, state, silent));
  }
  const html = md.inline.ruler.__rules__.find((rule) => rule.name === 'html_inline')?.fn;
  if (!html) throw new Error('markdown-it has no inline rule "html_inline"');
  md.inline.ruler.at('html_inline', (state: StateInline, silent: boolean) => inlineHtml(html, state, silent));
  const autolink = md.inline.ruler.__rules__.find((rule) => rule.name === 'autolink')?.fn;
  if (!autolink) throw new Error('markdown-it has no inline rule "autolink"');
  md.inline.ruler.at('autolink', (state: StateInline, silent: boolean) => !bangInEmail(state) && autolink(state, silent));
  md.inline.ruler2.at('balance_pairs', (state: StateInline) => {
    pairEmphasis(state.delimiters);
    const metas = state.tokens_meta;
    for (let index = 0; index < metas.length; index += 1) {
      const delimiters = metas[index]?.delimiters;
      if (delimiters) pairEmphasis(delimiters);
    }
  });
}

/**
 * A run of characters no inline rule starts at, taken as text at once. markdown-it's own rule
 * also stops at characters only its optional rules use (`:`, `-`, `~`, …), and each stop tries
 * every rule there in vain. The rules the CommonMark preset runs start only at a line ending
 * (`newline`), `\\` (`escape`), a backtick (`backticks`), `*` and `_` (`emphasis`), `[` (`link`),
 * `!` (`image`), `<` (`autolink`, `html_inline`) and `&` (`entity`); a link label ends at `]`.
 */
function plainRun(state: StateInline, silent: boolean): boolean {
  RULE_START.lastIndex = state.pos;
  // The pattern's scan beats a loop over characters; `test` allocates no match.
  const pos = Math.min(RULE_START.test(state.src) ? RULE_START.lastIndex - 1 : state.src.length, state.posMax);
  if (pos <= state.pos) return false;
  if (!silent) state.pending += state.src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

const RULE_START = /[\n!&*<[\\\]_`]/g;

/** False when no inline rule can start anywhere in `text`: it reads as one run of text. */
export function holdsInlineSyntax(text: string): boolean {
  RULE_START.lastIndex = 0;
  return RULE_START.test(text);
}

/**
 * Emphasis delimiters judged as micromark judges them: one UTF-16 unit at a time (an emoji
 * next to `_` is neither space nor punctuation), with JavaScript's idea of whitespace.
 */
function MicromarkFlanking(Base: typeof StateInline): typeof StateInline {
  return class extends Base {
    override scanDelims(start: number, canSplitWord: boolean): EmphasisRun {
      return emphasisRun(this.src, start, this.posMax, canSplitWord);
    }
  };
}

/** A run of one emphasis marker, and whether it may open or close emphasis. */
export interface EmphasisRun {
  readonly can_open: boolean;
  readonly can_close: boolean;
  readonly length: number;
}

/**
 * The run of the `*` or `_` at `start` in `src` (up to `max`), judged as micromark judges it;
 * `canSplitWord` is true for `*`, which may open or close inside a word.
 */
export function emphasisRun(src: string, start: number, max: number, canSplitWord: boolean): EmphasisRun {
  const marker = src.charCodeAt(start);
  let end = start;
  while (end < max && src.charCodeAt(end) === marker) end += 1;
  const previous = start > 0 ? src.charCodeAt(start - 1) : NaN;
  const next = end < src.length ? src.charCodeAt(end) : NaN;
  const before = classify(previous);
  const after = classify(next);
  const open = after === 'other' || (after === 'punctuation' && before !== 'other');
  const close = before === 'other' || (before === 'punctuation' && after !== 'other');
  return {
    can_open: canSplitWord ? open : open && (before !== 'other' || !close),
    can_close: canSplitWord ? close : close && (after !== 'other' || !open),
    length: end - start,
  };
}

type CharClass = 'whitespace' | 'punctuation' | 'other';

/**
 * A character's class for emphasis (NaN, past either end of the text, is whitespace). ASCII is
 * told without a pattern: its whitespace is tab to carriage return and space, and each of its 32
 * punctuation marks is Unicode punctuation or a symbol (a test holds this to the patterns for
 * all 128): a table built through the patterns cost a cold run about 0.3 ms.
 */
export function classify(code: number): CharClass {
  if (Number.isNaN(code)) return 'whitespace';
  if (code >= 128) return classOf(String.fromCharCode(code));
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 'whitespace';
  return (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e) ? 'punctuation' : 'other';
}

function classOf(char: string): CharClass {
  if (/\s/.test(char)) return 'whitespace';
  return /\p{P}|\p{S}/u.test(char) ? 'punctuation' : 'other';
}

// How many earlier openers of its marker a closing `*` or `_` run looks through: far more than
// prose ever leaves open, and a bound on thousands of unmatched runs in one paragraph.
const MAX_OPENER_SEARCH = 100;

interface DelimiterRun {
  readonly marker: number;
  readonly open: boolean;
  readonly close: boolean;
  /** The run's place among the paragraph's runs. */
  readonly at: number;
  /** The run's delimiters still unmatched: `low`..`high` in the delimiter list (none once it is dropped). */
  low: number;
  high: number;
  /** Where the next run not yet dropped may be, when the runs from here on were dropped together. */
  skipTo?: number;
}

/**
 * Pair emphasis delimiter runs as micromark does: a closing run takes the nearest open run of
 * its marker, two characters at a time when both have two; the rule of three compares what is
 * left of each run (CommonMark compares whole runs). What is left of the runs between a matched
 * pair is paired among itself, with the sizes left then (`**a****b******c***` holds
 * `**b**` within `**…**`), and dropped from the runs around.
 * markdown-it's emphasis rule then turns the pairs into `em`/`strong` tokens.
 */
function pairEmphasis(delimiters: Delimiter[]): void {
  if (delimiters.length === 0) return;
  const runs: DelimiterRun[] = [];
  for (let index = 0; index < delimiters.length; index += 1) {
    const delimiter = delimiters[index] as Delimiter;
    const last = runs[runs.length - 1];
    if (last && last.marker === delimiter.marker && delimiters[last.high]?.token === delimiter.token - 1) last.high = index;
    else runs.push({ marker: delimiter.marker, open: delimiter.open, close: delimiter.close, at: runs.length, low: index, high: index });
  }
  pairRuns(delimiters, runs, runs);
}

/** Pair `among`, runs of `runs` in order, as {@link pairEmphasis} describes. */
function pairRuns(delimiters: Delimiter[], runs: DelimiterRun[], among: readonly DelimiterRun[]): void {
  // Open runs by marker, in order: a marker's list is at its place in `markers` (`*` and `_`,
  // rarely both), looked up without a map or an iterator's entries.
  const markers: number[] = [];
  const openers: DelimiterRun[][] = [];
  for (const closer of among) {
    let place = markers.indexOf(closer.marker);
    if (place < 0) {
      place = markers.length;
      markers.push(closer.marker);
      openers.push([]);
    }
    const own = openers[place] as DelimiterRun[];
    while (closer.close && closer.low <= closer.high) {
      const found = openerFor(closer, own);
      if (found < 0) break;
      const opener = own[found] as DelimiterRun;
      const use = opener.high > opener.low && closer.high > closer.low ? 2 : 1;
      for (let n = 0; n < use; n += 1) (delimiters[opener.high - n] as Delimiter).end = closer.low + n;
      opener.high -= use;
      closer.low += use;
      // Open runs between the pair leave the lists, of either marker.
      own.length = opener.low <= opener.high ? found + 1 : found;
      for (let other = 0; other < openers.length; other += 1) {
        if (other === place) continue;
        const others = openers[other] as DelimiterRun[];
        while (others.length > 0 && (others[others.length - 1] as DelimiterRun).low > opener.low) others.pop();
      }
      pairBetween(delimiters, runs, opener.at, closer.at);
    }
    if (closer.open && closer.low <= closer.high) own.push(closer);
  }
}

/** Pair what is left of the runs between `from` and `to` among itself, then drop them. */
function pairBetween(delimiters: Delimiter[], runs: DelimiterRun[], from: number, to: number): void {
  // Almost every pair is two runs side by side (`**Term**`).
  if (from + 1 >= to) return;
  let left: DelimiterRun[] | undefined;
  for (let at = from + 1; at < to; ) {
    const run = runs[at] as DelimiterRun;
    if (run.low <= run.high) (left ??= []).push(run);
    at = run.skipTo ?? at + 1;
  }
  const first = runs[from + 1] as DelimiterRun;
  first.skipTo = Math.max(first.skipTo ?? 0, to);
  if (!left) return;
  if (left.length > 1) pairRuns(delimiters, runs, left);
  for (const run of left) run.low = run.high + 1;
}

function openerFor(closer: DelimiterRun, openers: readonly DelimiterRun[]): number {
  const closeSize = closer.high - closer.low + 1;
  for (let at = openers.length - 1; at >= Math.max(0, openers.length - MAX_OPENER_SEARCH); at -= 1) {
    const opener = openers[at] as DelimiterRun;
    const openSize = opener.high - opener.low + 1;
    if ((opener.close || closer.open) && closeSize % 3 !== 0 && (openSize + closeSize) % 3 === 0) continue;
    return at;
  }
  return -1;
}

/**
 * A code span's text as mdast keeps it: line endings stay (markdown-it turns them into spaces),
 * and one space or line ending is dropped at each end when both ends have one (a space that
 * stands for a tab's column is none).
 */
function codeSpan(backtick: (state: StateInline, silent: boolean) => boolean, state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const count = state.tokens.length;
  if (!backtick(state, silent)) return false;
  // Pending text is pushed first, so the span is the last token.
  const token = state.tokens[state.tokens.length - 1];
  if (!silent && state.tokens.length > count && token?.type === 'code_inline') {
    const fence = token.markup.length;
    const raw = state.src.slice(start + fence, state.pos - fence);
    const tabAtEnd = (state.env as InlineEnv).tabLeftOvers?.get(state.src)?.has(state.pos - fence - 1) === true;
    token.content = paddedCode(raw) && !tabAtEnd ? raw.slice(1, -1) : raw;
  }
  return true;
}

// A space or line ending at both ends of a code span's text that is not all spaces and line
// endings: the two are dropped. Most spans are not padded, which the ends tell.
export function paddedCode(raw: string): boolean {
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  return raw.length >= 2 && (first === 0x20 || first === 0x0a) && (last === 0x20 || last === 0x0a) && /[^ \n]/.test(raw);
}

/**
 * A shortcut reference (`[ref]` alone) right before another `[` is no link for micromark,
 * which tries `[ref][…]` there and gives up when that fails; CommonMark would take `[ref]`.
 * And a reference markdown-it found past a parenthesis that opens no link (`[ref](x y[y]`, see
 * {@link referenceBeforeParenthesis}) is read again as the shortcut reference `[ref]`.
 */
function notShortcutBeforeBracket(rule: (state: StateInline, silent: boolean) => boolean, state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const count = state.tokens.length;
  const pending = state.pending;
  if (!rule(state, silent)) return referenceBeforeParenthesis(rule, state, silent);
  const bracket = state.src.charCodeAt(state.pos) === 0x5b;
  if (!bracket && state.src.charCodeAt(state.pos - 1) !== 0x5d) return true;
  const labelStart = state.src.charCodeAt(start) === 0x21 ? start + 1 : start;
  const labelEnd = state.md.helpers.parseLinkLabel(state, labelStart, true);
  const pastParenthesis = state.pos > labelEnd + 1 && state.src.charCodeAt(labelEnd + 1) === 0x28 && state.src.charCodeAt(state.pos - 1) === 0x5d;
  if (!pastParenthesis && (!bracket || state.pos !== labelEnd + 1)) return true;
  state.pos = start;
  state.tokens.length = count;
  state.pending = pending;
  return pastParenthesis && referenceBeforeParenthesis(rule, state, silent);
}

/**
 * `[ref](` that opens no link: CommonMark (and micromark) read the shortcut reference `[ref]`
 * and then the text `(`. markdown-it gives the link up with nothing but whitespace after the
 * parenthesis, and reads `[ref](x[y]` as the reference `[ref][y]` (it steps over one character
 * past where the destination failed). The rule is run again with the parenthesis out of its reach.
 */
function referenceBeforeParenthesis(rule: (state: StateInline, silent: boolean) => boolean, state: StateInline, silent: boolean): boolean {
  const labelStart = state.src.charCodeAt(state.pos) === 0x21 ? state.pos + 1 : state.pos;
  if (state.src.charCodeAt(labelStart) !== 0x5b) return false;
  const labelEnd = state.md.helpers.parseLinkLabel(state, labelStart, true);
  if (labelEnd < 0 || state.src.charCodeAt(labelEnd + 1) !== 0x28) return false;
  const max = state.posMax;
  state.posMax = labelEnd + 1;
  const taken = rule(state, silent);
  state.posMax = max;
  return taken;
}

// Whitespace to markdown-it's HTML patterns (`\s`: no-break spaces, …) that is no space, tab or
// line ending: CommonMark's tags allow only those.
const OTHER_SPACE = /[^\S \t\n]/g;

// Where the next such whitespace of each run of text is, from where it was last looked for: a run
// with thousands of `<` is searched once, not from each of them (that took minutes).
const nextOtherSpace = new WeakMap<StateInline, number>();

function otherSpaceFrom(state: StateInline, from: number): number {
  const known = nextOtherSpace.get(state);
  if (known !== undefined && known >= from) return known;
  OTHER_SPACE.lastIndex = from;
  const found = OTHER_SPACE.exec(state.src)?.index ?? state.src.length;
  nextOtherSpace.set(state, found);
  return found;
}

// markdown-it looks for no comment, processing instruction, declaration or CDATA section in the
// rest of a run of text once one of them has no end there (its guard against scanning the rest
// again for each), so `<?` with no `?>` hid a later `<!X …>`. CommonMark ends each at its own
// terminator: the guard is kept for each terminator, which stays as linear.
const missingEnds = new WeakMap<StateInline, Set<string>>();

/** What ends the comment, processing instruction, CDATA section or declaration opening at `at`, if one opens there. */
function specialEnd(src: string, at: number): string | undefined {
  if (src.startsWith('<!--', at)) return '-->';
  if (src.startsWith('<![CDATA[', at)) return ']]>';
  const next = src.charCodeAt(at + 1);
  if (next === 0x3f) return '?>';
  const letter = src.charCodeAt(at + 2) | 0x20;
  return next === 0x21 && letter >= 0x61 && letter <= 0x7a ? '>' : undefined;
}

/**
 * Inline HTML as CommonMark reads it. Whitespace other than spaces, tabs and a line ending
 * (`<C\u00a0>`) separates nothing in a tag: a tag markdown-it finds across such whitespace is
 * taken only if it is still one with `#` in the whitespace's place (which ends a tag there, as
 * CommonMark does, and changes nothing inside a quoted value). A comment, processing
 * instruction, declaration or CDATA section with no end hides only later ones with the same
 * terminator (see missingEnds). Inline HTML running over a line ending, as micromark keeps it:
 * up to three columns of the next line's leading whitespace are dropped (a tab counts its
 * columns; what is left of a tab stays as spaces).
 */
function inlineHtml(html: (state: StateInline, silent: boolean) => boolean, state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const count = state.tokens.length;
  const terminator = specialEnd(state.src, start);
  if (terminator !== undefined) {
    const missing = missingEnds.get(state);
    state.skipHtmlSpecial = missing?.has(terminator) === true;
    if (!html(state, silent)) {
      if (state.skipHtmlSpecial) missingEnds.set(state, (missing ?? new Set()).add(terminator));
      return false;
    }
  } else {
    if (otherSpaceFrom(state, start) < state.src.length && !tagAsCommonMark(html, state)) return false;
    if (!html(state, silent)) return false;
  }
  const token = state.tokens[state.tokens.length - 1];
  if (silent || state.tokens.length === count || token?.type !== 'html_inline' || !token.content.includes('\n')) return true;
  const columns = (state.env as InlineEnv).lineColumns?.get(state.src);
  let line = 0;
  if (columns) for (let at = state.src.indexOf('\n'); at !== -1 && at < start; at = state.src.indexOf('\n', at + 1)) line += 1;
  token.content = token.content.replace(/\n([ \t]*)/g, (_match, space: string) => {
    line += 1;
    return `\n${withoutLinePrefix(space, columns?.[line] ?? 0)}`;
  });
  return true;
}

// Whether the tag markdown-it finds at the position holds no whitespace CommonMark would not
// take there: none within it, or it is a tag still with `#` in that whitespace's place, read
// from the tag's own text. The state is as it was found.
function tagAsCommonMark(html: (state: StateInline, silent: boolean) => boolean, state: StateInline): boolean {
  const { src, pos, posMax } = state;
  if (!html(state, true)) return true;
  const end = state.pos;
  state.pos = pos;
  if (otherSpaceFrom(state, pos) >= end) return true;
  const tag = src.slice(pos, end).replace(OTHER_SPACE, '#');
  state.src = tag;
  state.pos = 0;
  state.posMax = tag.length;
  try {
    return html(state, true) && state.pos === tag.length;
  } finally {
    state.src = src;
    state.pos = pos;
    state.posMax = posMax;
  }
}

function withoutLinePrefix(space: string, startColumn: number): string {
  let [budget, column, at] = [3, startColumn, 0];
  while (at < space.length && budget > 0) {
    if (space.charCodeAt(at) === 0x09) {
      const width = 4 - (column % 4);
      const dropped = Math.min(width, budget);
      budget -= dropped;
      column += width;
      at += 1;
      if (dropped < width) return ' '.repeat(width - dropped) + space.slice(at);
    } else {
      budget -= 1;
      column += 1;
      at += 1;
    }
  }
  return space.slice(at);
}

/**
 * micromark takes no `!` in an email autolink's local part (`<a!b@x.test>` is text), where
 * CommonMark and markdown-it allow it. A link with a scheme (`<ab:c!@d>`) is not an email.
 */
function bangInEmail(state: StateInline): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c) return false;
  const end = state.src.indexOf('>', state.pos);
  const inside = end < 0 ? '' : state.src.slice(state.pos + 1, end);
  const at = inside.indexOf('@');
  return at > 0 && !inside.includes(':') && inside.lastIndexOf('!', at) >= 0;
}

/**
 * A backslash before a space or tab escapes nothing and is plain text; markdown-it keeps the
 * space with it in one token, where micromark leaves it to be dropped before a line ending.
 */
function backslash(escape: (state: StateInline, silent: boolean) => boolean, state: StateInline, silent: boolean): boolean {
  const next = state.src.charCodeAt(state.pos + 1);
  if (state.src.charCodeAt(state.pos) !== 0x5c || (next !== 0x20 && next !== 0x09)) return escape(state, silent);
  if (!silent) state.pending += '\\';
  state.pos += 1;
  return true;
}

/**
 * A line ending inside a paragraph, as micromark reads it: the spaces and tabs before it are
 * dropped, and two or more of them, spaces only, make a hard break.
 */
function lineEnding(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x0a) return false;
  if (!silent) {
    const pending = state.pending;
    let end = pending.length;
    while (end > 0 && (pending.charCodeAt(end - 1) === 0x20 || pending.charCodeAt(end - 1) === 0x09)) end -= 1;
    const trailing = pending.slice(end);
    state.pending = pending.slice(0, end);
    state.push(trailing.length >= 2 && !trailing.includes('\t') ? 'hardbreak' : 'softbreak', 'br', 0);
  }
  let pos = state.pos + 1;
  while (pos < state.posMax && (state.src.charCodeAt(pos) === 0x20 || state.src.charCodeAt(pos) === 0x09)) pos += 1;
  state.pos = pos;
  return true;
}
