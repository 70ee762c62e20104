import { emphasisRun, paddedCode } from './micromark-inline.js';

/** An inline token as the inline parser would give it: its type and the text the tree reads. */
export interface InlineToken {
  readonly type: string;
  readonly content: string;
}

const SOFT_BREAK: InlineToken = { type: 'softbreak', content: '' };
const HARD_BREAK: InlineToken = { type: 'hardbreak', content: '' };
const LINK_OPEN: InlineToken = { type: 'link_open', content: '' };
const LINK_CLOSE: InlineToken = { type: 'link_close', content: '' };
// By run length less one: emphasis for one marker, strong emphasis for two.
const OPENERS: readonly InlineToken[] = [{ type: 'em_open', content: '' }, { type: 'strong_open', content: '' }];
const CLOSERS: readonly InlineToken[] = [{ type: 'em_close', content: '' }, { type: 'strong_close', content: '' }];

// Where plain text stops: a line ending, a character an inline rule starts at, `]`, and a tab
// (whose columns the block parser may have turned into spaces the inline rules look up).
const STOP = /[\t\n!&*<[\\\]_`]/g;

interface OpenRun {
  readonly marker: number;
  readonly length: number;
  /** Its token's index. */
  readonly token: number;
}

/**
 * The inline tokens of `src` when it holds only simple syntax — text, line endings, code spans
 * fenced by one backtick on one line, emphasis and strong emphasis whose runs pair without doubt, and
 * inline links with a plain destination, and brackets that can start no link — exactly as the
 * full inline parser would give them; undefined as soon as it holds anything else, which is left
 * to that parser. `definitions` says that the document defines link references (`[label]: url`),
 * so that a bracket may start a reference link. A space that stands for a tab's column is not
 * known here: such content must not be given.
 */
export function simpleInlineTokens(src: string, definitions = false): InlineToken[] | undefined {
  const tokens: InlineToken[] = [];
  return scan(src, 0, src.length, tokens, true, definitions) ? tokens : undefined;
}

/** Read `src` from `start` to `end` into `tokens`; false at anything outside the simple syntax. */
function scan(src: string, start: number, end: number, tokens: InlineToken[], linkAllowed: boolean, definitions: boolean): boolean {
  const open: OpenRun[] = [];
  // How many of the open runs are of `*` and of `_`: asked at each closer, in constant time.
  const openOf: [number, number] = [0, 0];
  // Where the text not yet in a token starts: the line-ending rule looks only at that text.
  let pending = start;
  let pos = start;
  let brackets: Brackets | undefined;
  while (pos < end) {
    STOP.lastIndex = pos;
    pos = STOP.test(src) ? STOP.lastIndex - 1 : end;
    if (pos >= end) break;
    const code = src.charCodeAt(pos);
    if (code === 0x0a) {
      // Spaces before a line ending are dropped; two or more make a hard break. Spaces after it
      // are skipped.
      let text = pos;
      while (text > pending && src.charCodeAt(text - 1) === 0x20) text -= 1;
      pushText(tokens, src, pending, text);
      tokens.push(pos - text >= 2 ? HARD_BREAK : SOFT_BREAK);
      pos += 1;
      while (pos < end && src.charCodeAt(pos) === 0x20) pos += 1;
      pending = pos;
    } else if (code === 0x21 || code === 0x26) {
      // `!` is text unless an image starts there, `&` unless a character reference may.
      const next = src.charCodeAt(pos + 1);
      if (code === 0x21 ? next === 0x5b : next === 0x23 || isAsciiLetter(next)) return false;
      pos += 1;
    } else if (code === 0x60) {
      const close = src.indexOf('`', pos + 1);
      if (src.charCodeAt(pos + 1) === 0x60) return false;
      if (close < 0) {
        // No backtick follows: this one is text.
        pos += 1;
        continue;
      }
      if (close >= end || src.charCodeAt(close + 1) === 0x60) return false;
      const raw = src.slice(pos + 1, close);
      if (raw.includes('\n')) return false;
      pushText(tokens, src, pending, pos);
      tokens.push({ type: 'code_inline', content: paddedCode(raw) ? raw.slice(1, -1) : raw });
      pos = pending = close + 1;
    } else if (code === 0x2a || code === 0x5f) {
      const run = emphasisRun(src, pos, end, code === 0x2a);
      if (run.can_open === run.can_close) {
        // A run that can neither open nor close is text; one that can do both is left to the parser.
        if (run.can_open) return false;
        pos += run.length;
        continue;
      }
      if (run.length > 2) return false;
      const side: 0 | 1 = code === 0x2a ? 0 : 1;
      if (run.can_close) {
        // A closer closes the run opened last, of its marker and length; with no open run of
        // its marker it is text; anything else is left to the parser.
        const opener = open[open.length - 1];
        if (opener?.marker === code && opener.length === run.length) {
          open.pop();
          openOf[side] -= 1;
        } else if (openOf[side] !== 0) return false;
        else {
          pos += run.length;
          continue;
        }
      }
      pushText(tokens, src, pending, pos);
      if (run.can_open) {
        open.push({ marker: code, length: run.length, token: tokens.length });
        openOf[side] += 1;
      }
      tokens.push((run.can_open ? OPENERS : CLOSERS)[run.length - 1] as InlineToken);
      pos = pending = pos + run.length;
    } else if (code === 0x5b && linkAllowed) {
      brackets ??= new Brackets(src);
      const after = inlineLinkEnd(src, pos, brackets);
      // A bracket no link can start at is text (a `[WIP]`, a `[~]`, a title cut short in `[a](http`).
      if (after < 0) {
        if (definitions || !startsNoLink(src, pos, brackets)) return false;
        pos += 1;
        continue;
      }
      pushText(tokens, src, pending, pos);
      tokens.push(LINK_OPEN);
      // The link's text is read on its own: its emphasis pairs inside it.
      if (!scan(src, pos + 1, brackets.closeFrom(pos + 1), tokens, false, definitions)) return false;
      tokens.push(LINK_CLOSE);
      pos = pending = after;
    } else if (code === 0x5d && linkAllowed && !definitions) {
      // Every `[` before it is a link passed over or a bracket no link can start at: a `]` here
      // closes nothing.
      pos += 1;
    } else return false;
  }
  pushText(tokens, src, pending, end);
  // An opener never closed is text.
  for (const run of open) tokens[run.token] = { type: 'text', content: String.fromCharCode(run.marker).repeat(run.length) };
  return true;
}

/**
 * Where the inline link `[text](destination)` at `start` ends, or -1 unless it is one with text
 * free of brackets and a destination of printable ASCII with no `<`, parentheses or backslash.
 */
function inlineLinkEnd(src: string, start: number, brackets: Brackets): number {
  const labelEnd = brackets.closeFrom(start + 1);
  if (labelEnd < 0 || src.charCodeAt(labelEnd + 1) !== 0x28) return -1;
  const destinationEnd = brackets.parenFrom(labelEnd + 2);
  if (destinationEnd <= labelEnd + 2) return -1;
  for (let at = labelEnd + 2; at < destinationEnd; at += 1) {
    const code = src.charCodeAt(at);
    if (code <= 0x20 || code >= 0x7f || code === 0x3c || code === 0x28 || code === 0x5c) return -1;
  }
  return destinationEnd + 1;
}

/**
 * Whether the `[` at `start` can start no link in a document that defines no reference, where
 * only an inline link is one: no `](` and then `)` follow it, or the first `]` after it, with
 * no bracket, code span, tag or escape before it, is not followed by `(` (that `]` drops it).
 */
function startsNoLink(src: string, start: number, brackets: Brackets): boolean {
  for (let at = start + 1; at < src.length; at += 1) {
    const code = src.charCodeAt(at);
    if (code === 0x5d) {
      if (src.charCodeAt(at + 1) !== 0x28) return true;
      break;
    }
    if (code === 0x5b || code === 0x60 || code === 0x5c || code === 0x3c) break;
  }
  return !brackets.resourceFrom(start + 1);
}

/**
 * Where the `]`, `)` and `](` of one content are, each searched for once however many brackets
 * ask (a line of 5,000 `[` asks 5,000 times): a scan asks from positions that only move forward.
 */
class Brackets {
  // The `]` and `)` found by the last search, or the content's length when there was none.
  private close = -1;
  private paren = -1;
  private lastResource: number | undefined;

  constructor(private readonly src: string) {}

  /** The first `]` at or after `from`, or -1. */
  closeFrom(from: number): number {
    if (this.close < from) this.close = found(this.src.indexOf(']', from), this.src);
    return this.close < this.src.length ? this.close : -1;
  }

  /** The first `)` at or after `from`, or -1. */
  parenFrom(from: number): number {
    if (this.paren < from) this.paren = found(this.src.indexOf(')', from), this.src);
    return this.paren < this.src.length ? this.paren : -1;
  }

  /** Whether a `](` with a `)` somewhere after it starts at or after `from`. */
  resourceFrom(from: number): boolean {
    if (this.lastResource === undefined) {
      const paren = this.src.lastIndexOf(')');
      this.lastResource = paren < 2 ? -1 : this.src.lastIndexOf('](', paren - 2);
    }
    return this.lastResource >= from;
  }
}

function found(at: number, src: string): number {
  return at < 0 ? src.length : at;
}

function pushText(tokens: InlineToken[], src: string, start: number, end: number): void {
  if (end > start) tokens.push({ type: 'text', content: src.slice(start, end) });
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
