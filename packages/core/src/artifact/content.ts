import type { Nodes, Root, RootContent, TableRow } from 'mdast';

// Words a template leaves where an author was meant to write something.
const PLACEHOLDER_WORDS = new Set(['tbd', 'todo', 'tba', '…', '...']);
// `<describe the boundary>`-style prompts: an angle-bracketed phrase with no attributes.
const PLACEHOLDER_TAG = /<[^<>=/"']*>/g;
const HTML_COMMENT = /<!--[\s\S]*?(-->|$)/g;

// A prompt a template leaves for its author, stricter than a placeholder that only makes a
// section empty: an angle-bracketed phrase of two words or more (`<what is wrong today>`) that
// does not follow a word (`Map<string, number>` is a type) and is not an HTML tag with a bare
// attribute (`<details open>`); or spec-kit's `[NEEDS CLARIFICATION: …]`.
const TEMPLATE_PROMPT = /(?<![\w<])<([A-Za-z][^<>=/"'\n]*\s[^<>=/"'\n]*)>|\[NEEDS CLARIFICATION:[^\]\n]*\]?/g;
const HTML_ELEMENTS = new Set(['a', 'abbr', 'audio', 'b', 'button', 'code', 'details', 'div', 'em', 'font', 'form', 'i', 'iframe', 'img', 'input', 'kbd', 'li', 'ol', 'option', 'p', 'picture', 'pre', 'script', 'select', 'source', 'span', 'strong', 'style', 'summary', 'table', 'td', 'textarea', 'th', 'tr', 'ul', 'video']);

// Any text a template prompt could be, wherever it stands: a file with none anywhere has none in
// any of its runs of text (a prompt is only ever reported where it stands as written).
const PROMPT_ANYWHERE = /<[A-Za-z][^<>=/"'\n]*\s[^<>=/"'\n]*>|\[NEEDS CLARIFICATION:/;

/** False when no run of this file's text can hold a template prompt as written. */
export function mayHoldTemplatePrompts(source: string): boolean {
  // A search for one character is far faster than the pattern's, and most files have no `<`.
  return (source.includes('<') || source.includes('[NEEDS CLARIFICATION:')) && PROMPT_ANYWHERE.test(source);
}

/** The template prompts in a run of text, with where each starts. */
export function templatePrompts(text: string): { index: number; text: string }[] {
  const found: { index: number; text: string }[] = [];
  for (const match of text.matchAll(TEMPLATE_PROMPT)) {
    const inside = match[1];
    if (inside !== undefined && HTML_ELEMENTS.has((inside.split(/\s/, 1)[0] ?? '').toLowerCase())) continue;
    found.push({ index: match.index, text: match[0] });
  }
  return found;
}

/** True when an HTML fragment is only comments and template placeholders. */
export function isInertHtml(value: string): boolean {
  return value.replace(HTML_COMMENT, '').replace(PLACEHOLDER_TAG, '').trim() === '';
}

// Punctuation between placeholders (`<boundary>: <control>`) is template scaffolding, not content.
// Made on first use: V8 reads the property's ranges when the pattern is made, 30 to 50 µs of a
// start-up, and a run that reads no artifact (its results kept) never needs it.
let punctuationOnly: RegExp | undefined;

const WORD = /\S+/g;
const NOT_SPACE = /\S/;

/** Whether a text holds only whitespace, as String#trim counts it: found without copying the text. */
export function isBlank(text: string): boolean {
  return !NOT_SPACE.test(text);
}

/** True when a run of text is empty or a template placeholder (`<…>`, `TBD`, `TODO`, `…`). */
export function isPlaceholderText(value: string): boolean {
  // Stripping tags cannot change a first character that is no `<`.
  let at = 0;
  while (isAsciiSpace(value.charCodeAt(at))) at += 1;
  if (opensNoPlaceholder(value.charCodeAt(at))) return false;
  const stripped = value.includes('<') ? value.replace(PLACEHOLDER_TAG, ' ') : value;
  // Word by word, stopping at the first real one: prose is judged by its first word.
  WORD.lastIndex = 0;
  for (let match = WORD.exec(stripped); match; match = WORD.exec(stripped)) {
    const word = match[0];
    if (!PLACEHOLDER_WORDS.has(word.toLowerCase()) && !(punctuationOnly ??= /^\p{P}+$/u).test(word)) return false;
  }
  return true;
}

/**
 * Whether a word opening with this character is surely no placeholder: prose mostly opens with
 * an ASCII digit or a letter other than `t` (`tbd`, `todo`, `tba`), which none opens with.
 */
export function opensNoPlaceholder(code: number): boolean {
  const lower = code | 0x20;
  return (code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x7a && lower !== 0x74);
}

// The characters below 0x80 that `\s` matches.
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * A node's plain text as mdast-util-to-string gives it: a value as written (HTML included),
 * an image's alt, or the text of its children joined.
 */
export function textOf(node: Nodes): string {
  // Text first: most nodes asked for are, and a type is read faster than a key is looked for.
  if (node.type === 'text') return node.value;
  // Then the paragraphs, headings and cells: no node has both children and a value or an alt.
  const children = (node as { children?: Nodes[] }).children;
  if (children === undefined) return 'value' in node ? node.value : ('alt' in node && node.alt) || '';
  return phrasingText(children);
}

/** The plain text of nodes side by side, as mdast-util-to-string joins a node's children. */
export function phrasingText(children: readonly Nodes[]): string {
  if (children.length === 1) return textOf(children[0] as Nodes);
  let text = '';
  for (let index = 0; index < children.length; index += 1) text += textOf(children[index] as Nodes);
  return text;
}

/**
 * Whether a node carries real content. Comments, placeholders, a table with a header and
 * no body rows, and blockquotes (a template's guidance) do not.
 */
export function isSubstantive(node: RootContent | Nodes): boolean {
  switch (node.type) {
    case 'html':
      return !isInertHtml(node.value);
    case 'blockquote':
    case 'thematicBreak':
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
    case 'heading':
      return false;
    case 'code':
      return !isBlank(node.value);
    case 'table': {
      const rows = node.children;
      for (let row = 1; row < rows.length; row += 1) {
        const cells = (rows[row] as TableRow).children;
        for (let cell = 0; cell < cells.length; cell += 1) if (!isPlaceholderText(textOf(cells[cell] as Nodes))) return true;
      }
      return false;
    }
    case 'list':
      for (let item = 0; item < node.children.length; item += 1) if (isSubstantive(node.children[item] as Nodes)) return true;
      return false;
    case 'listItem':
      for (let child = 0; child < node.children.length; child += 1) if (isSubstantive(node.children[child] as Nodes)) return true;
      return false;
    case 'paragraph':
      return isSubstantivePhrasing(node.children);
    default:
      return 'children' in node ? node.children.some((child) => isSubstantive(child as RootContent)) : textOf(node).trim() !== '';
  }
}

/** Whether a paragraph's phrasing carries real content: HTML that is not inert, text that is no placeholder. */
export function isSubstantivePhrasing(children: readonly Nodes[]): boolean {
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index] as Nodes;
    if (child.type === 'html' ? !isInertHtml(child.value) : !isPlaceholderText(textOf(child))) return true;
  }
  return false;
}

const MAX_PROMPTS = 200;

/**
 * The template prompts still in the text, by line: in text outside code, and in HTML that is not
 * a comment (`<describe the boundary>` parses as a tag). The tree gives each prompt in document
 * order and the block it sits in; its line and column come from the source, searched from that
 * block on. A prompt that is not in the source as written (`\<escaped\>`, `&lt;entities&gt;`)
 * was not typed as a prompt, and is left out.
 */
export function templatePromptsIn(root: Root, text: string): { line: number; column: number; prompts: string[] }[] {
  if (!mayHoldTemplatePrompts(text)) return [];
  const lines = text.split(/\r\n|\r|\n/);
  const byLine = new Map<number, { line: number; column: number; prompts: string[] }>();
  let cursor = { line: 1, column: 0 };
  // Where `value` next starts in the source, from the block's line or past the last one found.
  const find = (value: string, from: number): { line: number; column: number } | undefined => {
    const begin = from > cursor.line ? { line: from, column: 0 } : cursor;
    for (let line = begin.line; line <= lines.length; line += 1) {
      const at = (lines[line - 1] as string).indexOf(value, line === begin.line ? begin.column : 0);
      if (at >= 0) return { line, column: at };
    }
    return undefined;
  };
  const locate = (prompt: string, from: number): void => {
    const found = find(prompt, from);
    if (!found) return;
    cursor = { line: found.line, column: found.column + prompt.length };
    const entry = byLine.get(found.line) ?? { line: found.line, column: found.column + 1, prompts: [] };
    entry.prompts.push(prompt);
    byLine.set(found.line, entry);
  };
  // A prompt-like phrase in a code span is no prompt, and no later prompt is searched inside it:
  // the search moves past the span's text, line by line, as far as it finds it (remark keeps the
  // file's line endings in a span, the fast tree `\n`).
  const pass = (code: string, from: number): void => {
    const [first = '', ...rest] = code.split(/\r\n|\r|\n/);
    const found = find(first, from);
    if (!found) return;
    cursor = { line: found.line, column: found.column + first.length };
    for (const part of rest) {
      const at = (lines[cursor.line] ?? '').indexOf(part);
      if (at < 0) return;
      cursor = { line: cursor.line + 1, column: at + part.length };
    }
  };
  // Each search is bounded by the file's lines: so many prompts is a template, not a spec.
  let budget = MAX_PROMPTS;
  const walk = (nodes: readonly Nodes[], from: number): void => {
    for (const node of nodes) {
      if (budget <= 0) return;
      const here = node.position?.start.line ?? from;
      if (node.type === 'text' || node.type === 'html') {
        const value = node.type === 'html' ? node.value.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => ' '.repeat(comment.length)) : node.value;
        for (const prompt of templatePrompts(value)) if (budget-- > 0) locate(prompt.text, here);
      } else if (node.type === 'inlineCode') {
        if (mayHoldTemplatePrompts(node.value) && budget-- > 0) pass(node.value, here);
      } else if ('children' in node) walk(node.children as Nodes[], here);
    }
  };
  walk(root.children, 1);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}
