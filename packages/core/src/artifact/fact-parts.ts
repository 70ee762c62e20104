import type { PhrasingContent } from 'mdast';
import type { Diagnostic, Position } from '../diagnostic.js';
import { unclosedFrontMatter } from '../rules/front-matter-invalid.js';
import { isBlank, textOf } from './content.js';
import { parseFrontMatter } from './front-matter.js';
import { isTicked } from './mdast-nodes.js';
import type { FrontMatter, ListEntry, Statement, Task } from './types.js';

// What a fact is made of, from a block's phrasing and place: one implementation for the facts read
// from a tree (parse-artifact.ts) and those read straight from a simple document's blocks
// (simple-facts.ts).

// A non-GFM task marker such as `[~]`, `[-]` or `[/]` at the start of a list item's text, or any
// marker with no text after it (`- [ ]` alone is still an unticked box). A `*` right after the
// box is Kiro's mark of an optional task (`- [ ]* Write tests`).
const LOOSE_MARKER = /^\[([^\]\n])\](\*)?(?:\s+|$)/;

/** The front-matter of a file and what is wrong with it, from the YAML block its tree opens with, if any. */
export function frontMatterFacts(yaml: { readonly value: string; readonly position: Position } | undefined, text: string): { frontMatter: FrontMatter | undefined; diagnostics: Diagnostic[] } {
  if (!yaml) return { frontMatter: undefined, diagnostics: [...unclosedFrontMatter('', text)] };
  const result = parseFrontMatter('', { yaml: yaml.value, firstLine: yaml.position.line + 1, position: yaml.position });
  return { frontMatter: result.frontMatter, diagnostics: [...result.diagnostics] };
}

/**
 * A list item as an entry, from its first paragraph's phrasing and plain text (`paragraph`
 * undefined when its first block is no paragraph), the entries of the lists in it and where it is.
 */
export function listEntryOf(paragraph: readonly PhrasingContent[] | undefined, text: string, children: readonly ListEntry[], position: Position): ListEntry {
  if (paragraph === undefined) return { text: '', children, position };
  let opening: PhrasingContent | undefined;
  let marked: PhrasingContent | undefined;
  for (let index = 0; index < paragraph.length; index += 1) {
    const child = paragraph[index] as PhrasingContent;
    if (opening === undefined && (child.type !== 'text' || !isBlank(child.value))) opening = child;
    if (child.type === 'strong' || child.type === 'inlineCode') {
      marked = child;
      break;
    }
  }
  const lead = opening && (opening.type === 'strong' || opening.type === 'inlineCode') ? textOf(opening) : undefined;
  return entryOf(text, lead, marked ? textOf(marked) : undefined, children, position);
}

/** The entry as the items of a section under the subsection `under` hold it. */
export function withUnder(entry: ListEntry, under: string): ListEntry {
  return entryOf(entry.text, entry.lead, entry.marked, entry.children, entry.position, under);
}

// The keys an entry has, in the order it always had them: absent rather than undefined.
function entryOf(text: string, lead: string | undefined, marked: string | undefined, children: readonly ListEntry[], position: Position, under?: string): ListEntry {
  if (under === undefined) {
    if (lead === undefined) return marked === undefined ? { text, children, position } : { text, marked, children, position };
    return marked === undefined ? { text, lead, children, position } : { text, lead, marked, children, position };
  }
  if (lead === undefined) return marked === undefined ? { text, children, position, under } : { text, marked, children, position, under };
  return marked === undefined ? { text, lead, children, position, under } : { text, lead, marked, children, position, under };
}

/**
 * The task a list item is, if any: a GFM task (`checked` set, `body` the plain text of its first
 * paragraph, or '' when it has none), or a loose marker opening that paragraph's text.
 */
export function taskOf(checked: boolean | undefined, body: string | undefined, position: Position): Task | undefined {
  if (checked !== undefined) return new CheckedTask(checked, () => body ?? '', position);
  // Cheaper than the pattern on every item's text: a loose marker starts with a bracket.
  if (body === undefined || body.charCodeAt(0) !== 0x5b) return undefined;
  const match = LOOSE_MARKER.exec(body);
  if (!match) return undefined;
  // `[x]` reaches here only when GFM did not take it (e.g. no text after it): still done.
  const marker = match[1] ?? ' ';
  return { text: body.slice(match[0].length).trim(), done: isTicked(marker), marker, optional: match[2] === '*', position };
}

/**
 * A GFM task (`- [ ]`, `- [x]`), whose text (`body`: the plain text of its item's first
 * paragraph) is read only when asked for: most tasks are ticked, and a gate shows only the text
 * of those that are not. The text is an own property, first as in any task, which JSON and
 * equality see.
 */
export class CheckedTask implements Task {
  declare readonly text: string;
  declare readonly done: boolean;
  declare readonly marker: string;
  declare readonly optional: boolean;
  declare readonly position: Position;
  readonly #body: () => string;
  #text: string | undefined;

  static readonly #textProperty: PropertyDescriptor = { enumerable: true, get: function (this: CheckedTask) { return (this.#text ??= this.#body().trim()); } };

  constructor(done: boolean, body: () => string, position: Position) {
    this.#body = body;
    Object.defineProperty(this, 'text', CheckedTask.#textProperty);
    const self = this as { -readonly [K in keyof Task]: Task[K] };
    self.done = done;
    self.marker = done ? 'x' : ' ';
    self.optional = false;
    self.position = position;
  }
}

/** The statement a paragraph makes (its phrasing and plain text), if it says anything. */
export function statementOf(paragraph: readonly PhrasingContent[], body: string, section: string | undefined, listDepth: number, position: Position): Statement | undefined {
  const first = paragraph[0];
  const lead = first?.type === 'strong' || first?.type === 'inlineCode' ? textOf(first).trim() : undefined;
  // A loose task marker (`[~] …`) is the box, not the statement.
  const text = (body.charCodeAt(0) === 0x5b ? body.replace(LOOSE_MARKER, '') : body).trim();
  return text === '' ? undefined : { text, lead, section, listDepth, position };
}
