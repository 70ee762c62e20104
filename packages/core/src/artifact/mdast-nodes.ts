import type { Paragraph, PhrasingContent } from 'mdast';

// The parts of mdast nodes both block readers build alike.

/** A node's position as the trees here give it: where it starts, which is also where it ends. */
export interface Position {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}

/** The position of a node that starts at `line` and `column` (1-based). */
export function at(line: number, column: number): Position {
  const point = { line, column };
  return { start: point, end: point };
}

/**
 * The mark inside a GFM task check at the start of a list item's first paragraph, if one is
 * there: `[ ]`, `[x]` or `[X]` (a tab or line ending for the space too), then a line ending, or
 * spaces and something more (micromark-extension-gfm-task-list-item's rule).
 */
export function taskCheck(content: string): string | undefined {
  if (content.charCodeAt(0) !== 0x5b || content.charCodeAt(2) !== 0x5d) return undefined;
  const mark = content.charCodeAt(1);
  if (mark !== 0x20 && mark !== 0x09 && mark !== 0x0a && mark !== 0x78 && mark !== 0x58) return undefined;
  const after = content.charCodeAt(3);
  // Spaces and then anything: one space and the character after it will do.
  return after === 0x0a || ((after === 0x20 || after === 0x09) && content.length > 4) ? content.charAt(1) : undefined;
}

// A task check's length: mdast drops it from the item's text.
export const CHECK_LENGTH = 3;

/**
 * A list item's first paragraph when its content (`content`, on `line` from `column`) opens with
 * a GFM task check: mdast drops the check, then the first character of the text right after it,
 * and starts the paragraph at the text it kept, if any. `read` gives the phrasing of the content
 * after the check. Undefined when the content opens with no check.
 */
export function taskParagraph(content: string, line: number, column: number, read: (rest: string, line: number) => PhrasingContent[]): { checked: boolean; paragraph: Paragraph } | undefined {
  const check = taskCheck(content);
  if (check === undefined) return undefined;
  const paragraph: Paragraph = { type: 'paragraph', children: [], position: at(line, column) };
  const children = read(content.slice(CHECK_LENGTH), line);
  paragraph.children = children;
  const head = children[0];
  if (head?.type === 'text') {
    head.value = head.value.slice(1);
    if (head.value === '') children.shift();
    else paragraph.position = at(line, column + CHECK_LENGTH + 1);
  }
  return { checked: isTicked(check), paragraph };
}

/** Whether a task check's mark ticks it: `x` or `X`. */
export function isTicked(mark: string): boolean {
  return mark === 'x' || mark === 'X';
}

// In a table cell `\|` is a pipe even inside a code span (mdast-util-gfm-table's rule).
export function unescapePipesInCode(nodes: PhrasingContent[]): PhrasingContent[] {
  for (const node of nodes) {
    if (node.type === 'inlineCode') node.value = node.value.replace(/\\([\\|])/g, (escape, char: string) => (char === '|' ? char : escape));
    else if ('children' in node) unescapePipesInCode(node.children as PhrasingContent[]);
  }
  return nodes;
}
