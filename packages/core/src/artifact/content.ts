import type { Nodes, RootContent } from 'mdast';

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
  return PROMPT_ANYWHERE.test(source);
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
const PUNCTUATION_ONLY = /^\p{P}+$/u;

const WORD = /\S+/g;

/** True when a run of text is empty or a template placeholder (`<…>`, `TBD`, `TODO`, `…`). */
export function isPlaceholderText(value: string): boolean {
  const stripped = value.includes('<') ? value.replace(PLACEHOLDER_TAG, ' ') : value;
  // Word by word, stopping at the first real one: prose is judged by its first word.
  WORD.lastIndex = 0;
  for (let match = WORD.exec(stripped); match; match = WORD.exec(stripped)) {
    const word = match[0];
    if (!PLACEHOLDER_WORDS.has(word.toLowerCase()) && !PUNCTUATION_ONLY.test(word)) return false;
  }
  return true;
}

/**
 * A node's plain text as mdast-util-to-string gives it: a value as written (HTML included),
 * an image's alt, or the text of its children joined.
 */
export function textOf(node: Nodes): string {
  if ('value' in node) return node.value;
  if ('alt' in node && node.alt) return node.alt;
  if (!('children' in node)) return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
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
      return node.value.trim() !== '';
    case 'table':
      return node.children.slice(1).some((row) => row.children.some((cell) => !isPlaceholderText(textOf(cell))));
    case 'list':
      return node.children.some((item) => item.children.some(isSubstantive));
    case 'listItem':
      return node.children.some(isSubstantive);
    case 'paragraph':
      return node.children.some((child) => {
        if (child.type === 'html') return !isInertHtml(child.value);
        return !isPlaceholderText(textOf(child));
      });
    default:
      return 'children' in node ? node.children.some((child) => isSubstantive(child as RootContent)) : textOf(node).trim() !== '';
  }
}
