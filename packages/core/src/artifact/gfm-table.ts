import type { StateBlock } from 'markdown-it';

// A delimiter row: cells of `-`, each maybe with a colon at either end, between optional pipes.
const DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * A table row's cells as GFM writes them: split at pipes not escaped by a backslash (a `\\`
 * pair escapes nothing), the pipe at either end optional. Cell text keeps its escapes.
 */
export function splitCells(row: string): string[] {
  const text = trimSpaces(row);
  const cells: string[] = [];
  let from = 0;
  // A pipe is escaped by the run of backslashes right before it when the run is odd: its pairs
  // escape each other. Searched pipe by pipe, which is far cheaper than a look at every character.
  for (let at = text.indexOf('|'); at !== -1; at = text.indexOf('|', at + 1)) {
    let before = at;
    while (before > 0 && text.charCodeAt(before - 1) === 0x5c) before -= 1;
    if ((at - before) % 2 === 1) continue;
    cells.push(text.slice(from, at));
    from = at + 1;
  }
  cells.push(text.slice(from));
  if (text.startsWith('|')) cells.shift();
  // A closing pipe is one the loop split at last (`\\|` ends in one; `\|` does not).
  if (cells.length > 0 && text.endsWith('|') && from === text.length) cells.pop();
  // A row of nothing but a pipe is one empty cell.
  return cells.length === 0 && text !== '' ? [''] : cells.map(trimSpaces);
}

// Spaces and tabs only, as GFM trims a row and its cells: a no-break space is a cell's content.
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start += 1;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end -= 1;
  return text.slice(start, end);
}

/**
 * Whether a header line over a delimiter row opens a GFM table, each given past its indent: the
 * delimiter row has a pipe or a colon (so `a|` over `---` stays a setext heading) and as many
 * cells as the header, which is no lone pipe.
 */
export function opensTable(head: string, delimiter: string): boolean {
  return isDelimiterRow(delimiter) && trimSpaces(head) !== '|' && splitCells(head).length === splitCells(delimiter).length;
}

/** Whether a line's text past its indent is a delimiter row a table may open with. */
export function isDelimiterRow(text: string): boolean {
  // `- |` opens a list item, which ends the paragraph the header line would have been.
  return DELIMITER_ROW.test(text) && /[|:]/.test(text) && !/^-[ \t]/.test(text);
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line]);
}

/**
 * GFM tables as micromark-extension-gfm-table reads them, as a markdown-it block rule: a
 * header line of one or more cells, then a delimiter row with as many cells that has a pipe or
 * a colon (so `a|` over `---` stays a setext heading), then every following line of the same
 * container up to a blank line or another block. markdown-it's own table rule wants a pipe in
 * the header, pads and cuts rows to the header's width and reads escapes differently.
 * Tokens: `table_open`, then `tr_open`/`tr_close` for each row (the header first; cells are
 * split again from each row's line), then `table_close`.
 */
export function gfmTable(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (!mayOpenTable(state, startLine, endLine)) return false;
  const delimiterLine = startLine + 1;
  if (!opensTable(lineText(state, startLine), lineText(state, delimiterLine))) return false;
  if (silent) return true;

  const terminators = state.md.block.ruler.getRules('blockquote');
  const parentType = state.parentType;
  state.parentType = 'table' as typeof state.parentType;
  const open = state.push('table_open', 'table', 1);
  const lines: [number, number] = [startLine, 0];
  open.map = lines;
  pushRow(state, startLine);
  let line = delimiterLine + 1;
  for (; line < endLine; line += 1) {
    const indent = (state.sCount[line] ?? 0) - state.blkIndent;
    // A lazy line, a blank one, or indented code ends the table.
    if (indent < 0 || indent >= 4 || state.isEmpty(line)) break;
    if (terminators.some((rule) => rule(state, line, endLine, true)) || startsHtml(state, line, endLine)) break;
    pushRow(state, line);
  }
  state.push('table_close', 'table', -1);
  lines[1] = line;
  state.parentType = parentType;
  state.line = line;
  return true;
}

/**
 * Whether a table could start at `startLine`, by the cheap tests alone: a header line indented
 * as no code, then a line of the same container opening with what a delimiter row opens with.
 * Asked at every line of every paragraph, where almost every line fails on the next line's first
 * character.
 */
export function mayOpenTable(state: StateBlock, startLine: number, endLine: number): boolean {
  const delimiterLine = startLine + 1;
  if (delimiterLine >= endLine) return false;
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const delimiterIndent = (state.sCount[delimiterLine] ?? 0) - state.blkIndent;
  if (delimiterIndent < 0 || delimiterIndent >= 4) return false;
  const at = (state.bMarks[delimiterLine] ?? 0) + (state.tShift[delimiterLine] ?? 0);
  const first = state.src.charCodeAt(at);
  if (first === 0x2d) {
    // `- ` opens a list item, which no delimiter row does: under a list item, every next item.
    const second = state.src.charCodeAt(at + 1);
    return second !== 0x20 && second !== 0x09;
  }
  return first === 0x7c || first === 0x3a;
}

/**
 * Any HTML block ends a table, a lone tag line too (which may not interrupt a paragraph, so
 * markdown-it's quiet check says no): the rule is run for real and its tokens taken back.
 */
function startsHtml(state: StateBlock, line: number, endLine: number): boolean {
  const html = state.md.block.ruler.__rules__.find((rule) => rule.name === 'html_block')?.fn;
  const [tokens, next] = [state.tokens.length, state.line];
  const starts = html?.(state, line, endLine, false) === true;
  state.tokens.length = tokens;
  state.line = next;
  return starts;
}

function pushRow(state: StateBlock, line: number): void {
  state.push('tr_open', 'tr', 1).map = [line, line + 1];
  state.push('tr_close', 'tr', -1);
}
