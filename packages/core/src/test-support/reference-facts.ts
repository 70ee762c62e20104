import type { Heading, List, ListItem, Nodes, Paragraph, Root, RootContent, Table as MdTable } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Diagnostic, Position } from '../diagnostic.js';
import { nestedTooDeep } from '../rules/artifact-unreadable.js';
import { unclosedFrontMatter } from '../rules/front-matter-invalid.js';
import { parserFailed } from '../rules/internal-error.js';
import { leftPlaceholders } from '../rules/template-residue.js';
import { isInertHtml, isPlaceholderText, templatePromptsIn } from '../artifact/content.js';
import { frontMatterFromYaml } from '../artifact/front-matter.js';
import type { MarkdownTree } from '../artifact/markdown-tree.js';
import type { ArtifactFacts, FrontMatter, ListEntry, Section, Statement, Table, Task } from '../artifact/types.js';
import { referenceTree } from './reference-tree.js';

// A loose task marker, as parse-artifact.ts defines it.
const LOOSE_MARKER = /^\[([^\]\n])\](\*)?(?:\s+|$)/;

/**
 * The facts as the reference reads them: remark's tree (or any mdast tree given), walked node
 * by node with mdast-util-to-string for plain text. The extraction the fast reader replaced,
 * kept as the oracle it is tested against.
 */
export function referenceFacts(rawText: string, tree: (text: string) => MarkdownTree = referenceTree): ArtifactFacts {
  const text = withoutBom(rawText);
  const lineCount = countLines(text);
  try {
    return factsOf(tree(text), text, lineCount);
  } catch (error) {
    return {
      lineCount,
      empty: text.trim() === '',
      frontMatter: undefined,
      sections: [],
      tasks: [],
      tables: [],
      statements: [],
      diagnostics: [parserFailed('', error)],
    };
  }
}

function factsOf({ root, truncatedAt }: MarkdownTree, text: string, lineCount: number): ArtifactFacts {
  const diagnostics: Diagnostic[] = [];
  let frontMatter: FrontMatter | undefined;
  const first = root.children[0];
  if (first?.type === 'yaml') {
    const position = start(first);
    const result = frontMatterFromYaml('', { yaml: first.value, firstLine: position.line + 1, position });
    frontMatter = result.frontMatter;
    diagnostics.push(...result.diagnostics);
  } else diagnostics.push(...unclosedFrontMatter('', text));
  if (truncatedAt !== undefined) diagnostics.push(nestedTooDeep('', truncatedAt));
  diagnostics.push(...leftPlaceholders('', templatePromptsIn(root, text)));
  const plain = plainText();
  return {
    lineCount,
    empty: text.trim() === '',
    frontMatter,
    sections: readSections(root, plain),
    tasks: readTasks(root, plain),
    tables: readTables(root),
    statements: readStatements(root, plain),
    diagnostics,
  };
}

type PlainText = (node: Nodes) => string;

/** A node's plain text, as mdast-util-to-string gives it; several readers ask for the same paragraphs. */
function plainText(): PlainText {
  const known = new Map<Nodes, string>();
  return (node) => {
    let text = known.get(node);
    if (text === undefined) {
      text = toString(node);
      known.set(node, text);
    }
    return text;
  };
}

function readSections(root: Root, plain: PlainText): Section[] {
  const children = root.children;
  // A node belongs to every enclosing section (six levels at most): judge each once.
  const substantive: (boolean | undefined)[] = [];
  const substantiveAt = (at: number): boolean => (substantive[at] ??= isSubstantive(children[at] as RootContent));
  // A list belongs to every enclosing section too: read its entries once.
  const entries: (ListEntry[] | undefined)[] = [];
  const entriesAt = (at: number, list: List): ListEntry[] => (entries[at] ??= list.children.map((item) => listEntry(item, plain)));
  const sections: Section[] = [];
  children.forEach((node, index) => {
    if (node.type !== 'heading') return;
    let end = index + 1;
    while (end < children.length) {
      const next = children[end] as RootContent;
      if (next.type === 'heading' && next.depth <= node.depth) break;
      end += 1;
    }
    const owned: number[] = [];
    for (let at = index + 1; at < end; at += 1) owned.push(at);
    sections.push({
      title: headingTitle(node),
      depth: node.depth,
      position: start(node),
      empty: !owned.some(substantiveAt),
      items: listEntries(children, owned, entriesAt),
    });
  });
  return sections;
}

// A section's list items, each with the subsection it sits in (a template's `### Abuse cases`).
function listEntries(children: readonly RootContent[], owned: readonly number[], entriesAt: (at: number, list: List) => ListEntry[]): ListEntry[] {
  let under: string | undefined;
  return owned.flatMap((at) => {
    const child = children[at] as RootContent;
    if (child.type === 'heading') under = headingTitle(child);
    if (child.type !== 'list') return [];
    const entries = entriesAt(at, child);
    const subsection = under;
    return subsection === undefined ? entries : entries.map((entry) => ({ ...entry, under: subsection }));
  });
}

function listEntry(item: ListItem, plain: PlainText, depth = 0): ListEntry {
  const paragraph = item.children[0];
  const children =
    depth > 0 ? [] : item.children.flatMap((child) => (child.type === 'list' ? child.children.map((nested) => listEntry(nested, plain, depth + 1)) : []));
  if (paragraph?.type !== 'paragraph') return { text: '', children, position: start(item) };
  const opening = paragraph.children.find((child) => child.type !== 'text' || child.value.trim() !== '');
  const marked = paragraph.children.find((child) => child.type === 'strong' || child.type === 'inlineCode');
  return {
    text: plain(paragraph),
    ...(opening && (opening.type === 'strong' || opening.type === 'inlineCode') ? { lead: toString(opening) } : {}),
    ...(marked ? { marked: toString(marked) } : {}),
    children,
    position: start(item),
  };
}

function readTasks(root: Root, plain: PlainText): Task[] {
  const tasks: Task[] = [];
  // List items sit in lists, lists in list items, block quotes and the root: nowhere else.
  const walk = (nodes: readonly Nodes[]): void => {
    for (const node of nodes) {
      if (node.type === 'listItem') {
        const task = taskOf(node, plain);
        if (task) tasks.push(task);
      }
      if (node.type === 'list' || node.type === 'listItem' || node.type === 'blockquote') walk(node.children);
    }
  };
  walk(root.children);
  return tasks;
}

function taskOf(item: ListItem, plain: PlainText): Task | undefined {
  const paragraph = item.children[0];
  const body = paragraph?.type === 'paragraph' ? plain(paragraph) : '';
  if (typeof item.checked === 'boolean') {
    return { text: body.trim(), done: item.checked, marker: item.checked ? 'x' : ' ', optional: false, position: start(item) };
  }
  const match = LOOSE_MARKER.exec(body);
  if (!match || paragraph?.type !== 'paragraph') return undefined;
  // `[x]` reaches here only when GFM did not take it (e.g. no text after it): still done.
  const marker = match[1] ?? ' ';
  return {
    text: body.slice(match[0].length).trim(),
    done: marker === 'x' || marker === 'X',
    marker,
    optional: match[2] === '*',
    position: start(item),
  };
}

function readTables(root: Root): Table[] {
  const tables: Table[] = [];
  let heading: string | undefined;
  const walk = (nodes: readonly RootContent[]): void => {
    for (const node of nodes) {
      if (node.type === 'heading') heading = headingTitle(node);
      else if (node.type === 'table') tables.push(tableOf(node, heading));
      else if (node.type === 'list' || node.type === 'blockquote') walk(childrenOf(node));
    }
  };
  walk(root.children);
  return tables;
}

function readStatements(root: Root, plain: PlainText): Statement[] {
  const statements: Statement[] = [];
  let section: string | undefined;
  const paragraph = (node: Paragraph, listDepth: number, position = start(node)): void => {
    const first = node.children[0];
    const lead = first?.type === 'strong' || first?.type === 'inlineCode' ? toString(first).trim() : undefined;
    // A loose task marker (`[~] …`) is the box, not the statement.
    const text = plain(node).replace(LOOSE_MARKER, '').trim();
    if (text !== '') statements.push({ text, lead, section, listDepth, position });
  };
  const list = (node: List, depth: number): void => {
    for (const item of node.children) {
      item.children.forEach((child, index) => {
        if (child.type === 'paragraph' && index === 0) paragraph(child, depth, start(item));
        else if (child.type === 'list') list(child, depth + 1);
      });
    }
  };
  for (const node of root.children) {
    if (node.type === 'heading') section = headingTitle(node);
    else if (node.type === 'paragraph') paragraph(node, 0);
    else if (node.type === 'list') list(node, 1);
  }
  return statements;
}

function childrenOf(node: List | RootContent): RootContent[] {
  if (node.type === 'list') return node.children.flatMap((item) => item.children);
  return 'children' in node ? (node.children as RootContent[]) : [];
}

function tableOf(node: MdTable, section: string | undefined): Table {
  const [head, ...body] = node.children;
  return {
    section,
    header: head ? head.children.map((cell) => toString(cell).trim()) : [],
    rows: body.map((row) => ({ cells: row.children.map((cell) => toString(cell).trim()), position: start(row) })),
    position: start(node),
  };
}

/** A heading's title as plain text; the parser already drops closing `#`s. */
function headingTitle(node: Heading): string {
  return toString(node).trim();
}

function start(node: { position?: { start: { line: number; column: number } } | undefined }): Position {
  const point = node.position?.start;
  return point ? { line: point.line, column: point.column } : { line: 1, column: 1 };
}

function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

// As CommonMark (and so every position remark reports) counts them: \r\n, \r and \n each end a line.
function countLines(text: string): number {
  return (text.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

/** Whether a node carries real content, judged with mdast-util-to-string's text. */
function isSubstantive(node: RootContent | Nodes): boolean {
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
      return node.children.slice(1).some((row) => row.children.some((cell) => !isPlaceholder(toString(cell))));
    case 'list':
      return node.children.some((item) => item.children.some(isSubstantive));
    case 'listItem':
      return node.children.some(isSubstantive);
    case 'paragraph':
      return node.children.some((child) => (child.type === 'html' ? !isInertHtml(child.value) : !isPlaceholder(toString(child))));
    default:
      return 'children' in node ? node.children.some((child) => isSubstantive(child as RootContent)) : toString(node).trim() !== '';
  }
}

// Placeholder text as first written, word list and all: the fast check stops at the first real word.
function isPlaceholder(value: string): boolean {
  const stripped = value.replace(/<[^<>=/"']*>/g, ' ').trim();
  return stripped === '' || stripped.split(/\s+/).every((word) => isPlaceholderText(word));
}
