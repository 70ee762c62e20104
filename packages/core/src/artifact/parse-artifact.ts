import type { Heading, List, ListItem, Nodes, Paragraph, Root, RootContent, Table as MdTable } from 'mdast';
import type { Diagnostic, Position } from '../diagnostic.js';
import { nestedTooDeep } from '../rules/artifact-unreadable.js';
import { parserFailed } from '../rules/internal-error.js';
import { leftPlaceholders } from '../rules/template-residue.js';
import { isBlank, isSubstantive, mayHoldTemplatePrompts, templatePromptsIn, textOf } from './content.js';
import { frontMatterFacts, listEntryOf, statementOf, taskOf, withUnder } from './fact-parts.js';
import { markdownItTree, markdownTree, type MarkdownTree } from './markdown-tree.js';
import { simpleFacts } from './simple-facts.js';
import type { Artifact, ArtifactFacts, FrontMatter, ListEntry, Section, Statement, Table, Task } from './types.js';

/**
 * Bumped whenever the facts read from the same bytes could differ: cached facts carry the
 * version they were read with, and facts of another version are read again.
 */
export const PARSER_VERSION = 13;

/**
 * Parse one artifact. Total: it never throws, whatever the input; a failure inside the
 * parser becomes an `internal-error` diagnostic so the gate fails closed.
 */
export function parseArtifact(path: string, rawText: string): Artifact {
  return artifactFromFacts(path, rawText, extractFacts(rawText));
}

/** A file's artifact: from the facts read earlier from its bytes (a cache) when it has them, else parsed. */
export function artifactOf(path: string, source: { readonly text: string; readonly facts?: ArtifactFacts | undefined }): Artifact {
  return source.facts ? artifactFromFacts(path, source.text, source.facts) : parseArtifact(path, source.text);
}

/**
 * An artifact from facts read earlier from the same bytes (a cache), bound to its path. The
 * sections, tasks, tables and statements are read from the facts when asked for, not copied:
 * cached facts parse them on first use, facts of a simple document read them from its blocks
 * then, and most gates never ask.
 */
export function artifactFromFacts(path: string, rawText: string, facts: ArtifactFacts): Artifact {
  return new BoundFacts(path, withoutBom(rawText), facts);
}

// A class rather than an object literal with getters: a literal's getters are new functions each
// time, so every artifact got a hidden class of its own, held in the old generation, which kept
// its facts alive through every young-generation collection (a cold report promoted ten times
// the bytes, and its collections were that much slower).
class BoundFacts implements Artifact {
  readonly lineCount: number;
  readonly empty: boolean;
  readonly frontMatter: FrontMatter | undefined;
  readonly diagnostics: readonly Diagnostic[];

  constructor(
    readonly path: string,
    readonly text: string,
    private readonly facts: ArtifactFacts,
  ) {
    this.lineCount = facts.lineCount;
    this.empty = facts.empty;
    this.frontMatter = facts.frontMatter;
    this.diagnostics = facts.diagnostics.map((d) => ({ ...d, file: path }));
  }

  get sections(): readonly Section[] {
    return this.facts.sections;
  }

  get tasks(): readonly Task[] {
    return this.facts.tasks;
  }

  get tables(): readonly Table[] {
    return this.facts.tables;
  }

  get statements(): readonly Statement[] {
    return this.facts.statements;
  }
}

/**
 * What the gates read from a file's contents. Total, like {@link parseArtifact}. `tree` is
 * the parser: the fast one but in the test that makes it fail.
 */
export function extractFacts(rawText: string, tree: (text: string) => MarkdownTree = markdownTree): ArtifactFacts {
  const text = withoutBom(rawText);
  try {
    if (tree !== markdownTree) return factsOf(tree(text), text, countLines(text));
    // A document of simple block syntax, as most are, gives its facts with no tree built (its
    // lines counted as they are read); one the simple reader declines is not read by it again
    // for a tree (a template prompt needs one).
    return simpleFacts(text) ?? factsOf((mayHoldTemplatePrompts(text) ? markdownTree : markdownItTree)(text), text, countLines(text));
  } catch (error) {
    return {
      lineCount: countLines(text),
      empty: isBlank(text),
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
  const first = root.children[0];
  const { frontMatter, diagnostics } = frontMatterFacts(first?.type === 'yaml' ? { value: first.value, position: start(first) } : undefined, text);
  if (truncatedAt !== undefined) diagnostics.push(nestedTooDeep('', truncatedAt));
  diagnostics.push(...leftPlaceholders('', templatePromptsIn(root, text)));
  const plain = plainText();
  return {
    lineCount,
    empty: isBlank(text),
    frontMatter,
    sections: readSections(root, plain),
    tasks: readTasks(root, plain),
    tables: readTables(root, plain),
    statements: readStatements(root, plain),
    diagnostics,
  };
}

type PlainText = (node: Nodes) => string;

/**
 * A node's plain text, as mdast-util-to-string gives it (an image's alt, HTML as written);
 * several readers ask for the same paragraphs and headings, so each is joined once.
 */
function plainText(): PlainText {
  const known = new Map<Nodes, string>();
  return (node) => {
    // A node of one child or none has its text without a join: looking it up would cost more.
    const children = (node as { children?: Nodes[] }).children;
    if (children === undefined || children.length <= 1) return textOf(node);
    let text = known.get(node);
    if (text === undefined) {
      text = textOf(node);
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
  const sections: Section[] = [];
  for (let index = 0; index < children.length; index += 1) {
    const node = children[index] as RootContent;
    if (node.type !== 'heading') continue;
    let empty = true;
    let under: string | undefined;
    const items: ListEntry[] = [];
    for (let at = index + 1; at < children.length; at += 1) {
      const child = children[at] as RootContent;
      if (child.type === 'heading') {
        if (child.depth <= node.depth) break;
        // A section's list items, each with the subsection it sits in (a template's `### Abuse cases`).
        under = headingTitle(child, plain);
      }
      if (empty && substantiveAt(at)) empty = false;
      if (child.type !== 'list') continue;
      const own = (entries[at] ??= child.children.map((item) => listEntry(item, plain)));
      for (const entry of own) items.push(under === undefined ? entry : withUnder(entry, under));
    }
    sections.push({ title: headingTitle(node, plain), depth: node.depth, position: start(node), empty, items });
  }
  return sections;
}

function listEntry(item: ListItem, plain: PlainText, depth = 0): ListEntry {
  const paragraph = item.children[0];
  const children: ListEntry[] = [];
  if (depth === 0) {
    for (let index = 0; index < item.children.length; index += 1) {
      const child = item.children[index] as RootContent;
      if (child.type === 'list') for (let nested = 0; nested < child.children.length; nested += 1) children.push(listEntry(child.children[nested] as ListItem, plain, 1));
    }
  }
  return paragraph?.type === 'paragraph' ? listEntryOf(paragraph.children, plain(paragraph), children, start(item)) : listEntryOf(undefined, '', children, start(item));
}

function readTasks(root: Root, plain: PlainText): Task[] {
  const tasks: Task[] = [];
  tasksIn(root.children, plain, tasks);
  return tasks;
}

// List items sit in lists, lists in list items, block quotes and the root: nowhere else.
function tasksIn(nodes: readonly Nodes[], plain: PlainText, tasks: Task[]): void {
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index] as Nodes;
    if (node.type === 'listItem') {
      const task = itemTask(node, plain);
      if (task) tasks.push(task);
    }
    if (node.type === 'list' || node.type === 'listItem' || node.type === 'blockquote') tasksIn(node.children, plain, tasks);
  }
}

function itemTask(item: ListItem, plain: PlainText): Task | undefined {
  const paragraph = item.children[0];
  const body = paragraph?.type === 'paragraph' ? plain(paragraph) : undefined;
  return taskOf(item.checked ?? undefined, body, start(item));
}

function readTables(root: Root, plain: PlainText): Table[] {
  const tables: Table[] = [];
  tablesIn(root.children, plain, { tables, heading: undefined });
  return tables;
}

// The tables found so far, and the title of the last heading before the next one.
interface TableWalk {
  readonly tables: Table[];
  heading: string | undefined;
}

function tablesIn(nodes: readonly RootContent[], plain: PlainText, walk: TableWalk): void {
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index] as RootContent;
    if (node.type === 'heading') walk.heading = headingTitle(node, plain);
    else if (node.type === 'table') walk.tables.push(tableOf(node, walk.heading));
    else if (node.type === 'list') for (let item = 0; item < node.children.length; item += 1) tablesIn((node.children[item] as ListItem).children, plain, walk);
    else if (node.type === 'blockquote') tablesIn(node.children, plain, walk);
  }
}

function readStatements(root: Root, plain: PlainText): Statement[] {
  const statements: Statement[] = [];
  let section: string | undefined;
  const paragraph = (node: Paragraph, listDepth: number, position = start(node)): void => {
    const statement = statementOf(node.children, plain(node), section, listDepth, position);
    if (statement) statements.push(statement);
  };
  const list = (node: List, depth: number): void => {
    for (let at = 0; at < node.children.length; at += 1) {
      const item = node.children[at] as ListItem;
      const children = item.children;
      for (let index = 0; index < children.length; index += 1) {
        const child = children[index] as RootContent;
        if (child.type === 'paragraph' && index === 0) paragraph(child, depth, start(item));
        else if (child.type === 'list') list(child, depth + 1);
      }
    }
  };
  for (let index = 0; index < root.children.length; index += 1) {
    const node = root.children[index] as RootContent;
    if (node.type === 'heading') section = headingTitle(node, plain);
    else if (node.type === 'paragraph') paragraph(node, 0);
    else if (node.type === 'list') list(node, 1);
  }
  return statements;
}

function tableOf(node: MdTable, section: string | undefined): Table {
  const rows = node.children;
  const head = rows[0];
  const body: Table['rows'][number][] = [];
  for (let index = 1; index < rows.length; index += 1) {
    const row = rows[index] as MdTable['children'][number];
    body.push({ cells: cellTexts(row), position: start(row) });
  }
  return { section, header: head ? cellTexts(head) : [], rows: body, position: start(node) };
}

function cellTexts(row: MdTable['children'][number]): string[] {
  const cells: string[] = [];
  for (let index = 0; index < row.children.length; index += 1) cells.push(textOf(row.children[index] as MdTable['children'][number]['children'][number]).trim());
  return cells;
}

/** A heading's title as plain text; the parser already drops closing `#`s. */
function headingTitle(node: Heading, plain: PlainText): string {
  return plain(node).trim();
}

// The tree's own point: facts never change a position, so they share it rather than copy it.
function start(node: { position?: { start: Position } | undefined }): Position {
  return node.position?.start ?? { line: 1, column: 1 };
}

function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

// As CommonMark (and so every position remark reports) counts them: \r\n, \r and \n each end a line.
function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  // A \r ends a line of its own unless a \n follows it (counted already).
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 0x0a) lines += 1;
  return lines;
}
