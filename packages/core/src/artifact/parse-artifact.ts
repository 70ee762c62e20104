import type { Heading, List, ListItem, Paragraph, Root, RootContent, Table as MdTable } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkFrontmatter from 'remark-frontmatter';
import { remarkGfmParts } from './remark-gfm-parts.js';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { Diagnostic, Position } from '../diagnostic.js';
import { unclosedFrontMatter } from '../rules/front-matter-invalid.js';
import { parserFailed } from '../rules/internal-error.js';
import { isSubstantive } from './content.js';
import { parseFrontMatter } from './front-matter.js';
import type { Artifact, FrontMatter, ListEntry, Section, Statement, Table, Task } from './types.js';

const processor = unified().use(remarkParse).use(remarkGfmParts).use(remarkFrontmatter, ['yaml']);

// A non-GFM task marker such as `[~]`, `[-]` or `[/]` at the start of a list item's text, or any
// marker with no text after it (`- [ ]` alone is still an unticked box).
const LOOSE_MARKER = /^\[([^\]\n])\](?:\s+|$)/;

/**
 * Parse one artifact. Total: it never throws, whatever the input; a failure inside the
 * parser becomes an `internal-error` diagnostic so the gate fails closed.
 */
export function parseArtifact(path: string, rawText: string): Artifact {
  const text = rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText;
  const lineCount = countLines(text);
  try {
    return parseMarkdown(path, text, lineCount);
  } catch (error) {
    return {
      path,
      text,
      lineCount,
      empty: text.trim() === '',
      frontMatter: undefined,
      sections: [],
      tasks: [],
      tables: [],
      statements: [],
      diagnostics: [parserFailed(path, error)],
    };
  }
}

/**
 * A file's front-matter block as the parser finds it: the offsets of the block, fences
 * included, and its YAML; undefined when the file has none. `text` has no byte-order mark.
 */
export function frontMatterBlock(text: string): { start: number; end: number; yaml: string } | undefined {
  const first = (processor.parse(text) as Root).children[0];
  const start = first?.position?.start.offset;
  const end = first?.position?.end.offset;
  return first?.type === 'yaml' && start !== undefined && end !== undefined ? { start, end, yaml: first.value } : undefined;
}

function parseMarkdown(path: string, text: string, lineCount: number): Artifact {
  const root = processor.parse(text) as Root;
  const diagnostics: Diagnostic[] = [];
  let frontMatter: FrontMatter | undefined;
  const first = root.children[0];
  if (first?.type === 'yaml') {
    const position = start(first);
    const result = parseFrontMatter(path, { yaml: first.value, firstLine: position.line + 1, position });
    frontMatter = result.frontMatter;
    diagnostics.push(...result.diagnostics);
  } else diagnostics.push(...unclosedFrontMatter(path, text));
  return {
    path,
    text,
    lineCount,
    empty: text.trim() === '',
    frontMatter,
    sections: readSections(root),
    tasks: readTasks(root),
    tables: readTables(root),
    statements: readStatements(root),
    diagnostics,
  };
}

function readSections(root: Root): Section[] {
  const children = root.children;
  const sections: Section[] = [];
  children.forEach((node, index) => {
    if (node.type !== 'heading') return;
    const owned: RootContent[] = [];
    // Indexing, not slicing the rest: a copy per heading is quadratic on a file of headings.
    for (let at = index + 1; at < children.length; at += 1) {
      const next = children[at] as RootContent;
      if (next.type === 'heading' && next.depth <= node.depth) break;
      owned.push(next);
    }
    sections.push({
      title: headingTitle(node),
      depth: node.depth,
      position: start(node),
      empty: !owned.some(isSubstantive),
      text: owned.map((child) => toString(child)).join('\n'),
      items: listEntries(owned),
    });
  });
  return sections;
}

// A section's list items, each with the subsection it sits in (a template's `### Abuse cases`).
function listEntries(owned: readonly RootContent[]): ListEntry[] {
  let under: string | undefined;
  return owned.flatMap((child) => {
    if (child.type === 'heading') under = headingTitle(child);
    if (child.type !== 'list') return [];
    return child.children.map((item) => (under === undefined ? listEntry(item) : { ...listEntry(item), under }));
  });
}

function listEntry(item: ListItem, depth = 0): ListEntry {
  const paragraph = item.children[0];
  const children = depth > 0 ? [] : item.children.flatMap((child) => (child.type === 'list' ? child.children.map((nested) => listEntry(nested, depth + 1)) : []));
  if (paragraph?.type !== 'paragraph') return { text: '', children, position: start(item) };
  const opening = paragraph.children.find((child) => child.type !== 'text' || child.value.trim() !== '');
  const marked = paragraph.children.find((child) => child.type === 'strong' || child.type === 'inlineCode');
  return {
    text: toString(paragraph),
    ...(opening && (opening.type === 'strong' || opening.type === 'inlineCode') ? { lead: toString(opening) } : {}),
    ...(marked ? { marked: toString(marked) } : {}),
    children,
    position: start(item),
  };
}

function readTasks(root: Root): Task[] {
  const tasks: Task[] = [];
  visit(root, 'listItem', (item: ListItem) => {
    const task = taskOf(item);
    if (task) tasks.push(task);
  });
  return tasks;
}

function taskOf(item: ListItem): Task | undefined {
  const paragraph = item.children[0];
  const body = paragraph?.type === 'paragraph' ? toString(paragraph) : '';
  if (typeof item.checked === 'boolean') {
    return { text: body.trim(), done: item.checked, marker: item.checked ? 'x' : ' ', position: start(item) };
  }
  const match = LOOSE_MARKER.exec(body);
  if (!match || paragraph?.type !== 'paragraph') return undefined;
  // `[x]` reaches here only when GFM did not take it (e.g. no text after it): still done.
  const marker = match[1] ?? ' ';
  return {
    text: body.slice(match[0].length).trim(),
    done: marker === 'x' || marker === 'X',
    marker,
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

function readStatements(root: Root): Statement[] {
  const statements: Statement[] = [];
  let section: string | undefined;
  const paragraph = (node: Paragraph, listDepth: number, position = start(node)): void => {
    const first = node.children[0];
    const lead = first?.type === 'strong' || first?.type === 'inlineCode' ? toString(first).trim() : undefined;
    // A loose task marker (`[~] …`) is the box, not the statement.
    const text = toString(node).replace(LOOSE_MARKER, '').trim();
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

// As CommonMark (and so every position remark reports) counts them: \r\n, \r and \n each end a line.
function countLines(text: string): number {
  return (text.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}
