import type { PhrasingContent } from 'mdast';
import type { Diagnostic, Position } from '../diagnostic.js';
import { isBlank, isInertHtml, isPlaceholderText, isSubstantivePhrasing, mayHoldTemplatePrompts, opensNoPlaceholder, phrasingText } from './content.js';
import { CheckedTask, frontMatterFacts, listEntryOf, statementOf, taskOf, withUnder } from './fact-parts.js';
import { splitCells } from './gfm-table.js';
import { preparedMarkdown, simpleCellPhrasing, simplePhrasing } from './markdown-tree.js';
import { isTicked, taskCheck, taskParagraph } from './mdast-nodes.js';
import { readSimpleBlocks, type BlockSink } from './simple-blocks.js';
import type { ArtifactFacts, FactsPart, FrontMatter, ListEntry, Section, Statement, Table, Task } from './types.js';

/**
 * The facts of a document of simple block syntax (see simple-blocks.ts), read from its blocks as
 * the simple reader finds them, with no tree: exactly what the extraction from the tree gives
 * (simple-facts.property.test.ts). Each kind of fact (sections, tasks, tables, statements) is
 * read from the blocks when first asked for, and a block's inline content is parsed only when a
 * fact asked for needs it: most gates read one kind of one file. Undefined when the reader
 * declines the document, and when a template prompt may stand in it: where each is, only the
 * tree's walk tells.
 */
export function simpleFacts(text: string): ArtifactFacts | undefined {
  if (mayHoldTemplatePrompts(text)) return undefined;
  const { yaml, src, start, firstLine } = preparedMarkdown(text);
  const blocks = new BlockRecords();
  const lineCount = readSimpleBlocks(src, blocks, start, firstLine);
  if (lineCount === undefined) return undefined;
  const { frontMatter, diagnostics } = frontMatterFacts(yaml === undefined ? undefined : { value: yaml, position: { line: 1, column: 1 } }, text);
  return new SimpleFacts(lineCount, isBlank(text), frontMatter, blocks.records, diagnostics);
}

const PARAGRAPH = 0;
const HEADING = 1;
const CODE = 2;
const HTML = 3;
const ROW = 4;
const ITEM = 5;
const QUOTE = 6;
const CLOSE = 7;

/**
 * A block as the reader found it, in document order: a leaf with its text (`value`: a
 * paragraph's or heading's inline content, code, HTML), a table row (its text, `header`), or a
 * container opened (a list item, a block quote) or closed. `depth` is the number of list items it
 * is in (0 at the root; a list item's own, for an item); `level`, a heading's depth; `first`,
 * whether it is the first block of the item it is in.
 */
interface BlockRecord {
  readonly kind: number;
  readonly value: string;
  /** A row's cells, split from its text (`value`) once a fact needs them. */
  cells: readonly string[] | undefined;
  readonly depth: number;
  readonly level: number;
  readonly first: boolean;
  readonly header: boolean;
  readonly inQuote: boolean;
  readonly position: Position;
  /** The inline content read (a task check taken out of an item's first paragraph), once a fact needed it. */
  phrasing: readonly PhrasingContent[] | undefined;
  /** Whether the item's first paragraph holds a GFM task check, and whether it is ticked, once read. */
  checked: boolean | undefined;
}

const NO_POSITION: Position = { line: 1, column: 1 };

/**
 * The longest inline content whose reading is left until a fact needs it. Its phrasing nests at
 * most half as deep as it is long, far from what exhausts the stack (tens of thousands of
 * levels, as 100,000 asterisks on each side of a word make); longer content is read at once.
 */
const SAFE_TO_DEFER = 2_000;

/** The blocks the reader finds, recorded as they arrive. */
class BlockRecords implements BlockSink {
  readonly records: BlockRecord[] = [];
  // 1 for each open list item, 0 for an open block quote: the first `depth` entries. Set and
  // counted rather than pushed and popped, which grows and shrinks the array's storage again for
  // every list item.
  private readonly open: number[] = [];
  private depth = 0;
  private items = 0;

  private add(kind: number, value: string, cells: readonly string[] | undefined, level: number, first: boolean, header: boolean, position: Position): void {
    const inQuote = this.inQuote();
    const record: BlockRecord = { kind, value, cells, depth: this.items, level, first, header, inQuote, position, phrasing: undefined, checked: undefined };
    this.records.push(record);
    // Reading inline content later must not fail where no diagnostic can say so: only content
    // long enough to nest too deep can, and it is read now, where a failure becomes one.
    if ((kind === PARAGRAPH || kind === HEADING) && value.length > SAFE_TO_DEFER) phrasingText(phrasingOf(record));
    if (kind === ROW && value.length > SAFE_TO_DEFER) for (const cell of cellsOf(record)) if (cell.length > SAFE_TO_DEFER) phrasingText(simpleCellPhrasing(cell));
  }

  paragraph(content: string, line: number, column: number, first: boolean): void {
    this.add(PARAGRAPH, content, undefined, 0, first, false, { line, column });
  }

  heading(depth: number, content: string, line: number, column: number): void {
    this.add(HEADING, content, undefined, depth, false, false, { line, column });
  }

  code(value: string): void {
    this.add(CODE, value, undefined, 0, false, false, NO_POSITION);
  }

  html(value: string, line: number, column: number): void {
    this.add(HTML, value, undefined, 0, false, false, { line, column });
  }

  thematicBreak(): void {}

  tableRow(row: string, line: number, column: number, header: boolean): void {
    this.add(ROW, row, undefined, 0, false, header, { line, column });
  }

  openQuote(): void {
    this.add(QUOTE, '', undefined, 0, false, false, NO_POSITION);
    this.open[this.depth] = 0;
    this.depth += 1;
  }

  openItem(_ordered: boolean, _newList: boolean, line: number, column: number): void {
    this.items += 1;
    this.open[this.depth] = 1;
    this.depth += 1;
    this.add(ITEM, '', undefined, 0, false, false, { line, column });
  }

  closeContainer(): void {
    if (this.depth > 0) {
      this.depth -= 1;
      this.items -= this.open[this.depth] as number;
    }
    this.records.push(this.inQuote() ? CLOSED_IN_QUOTE : CLOSED);
  }

  private inQuote(): boolean {
    return this.depth > 0 && this.open[0] === 0;
  }
}

/** A container's end, in a block quote or not: nothing else of it is read, so two records serve every one. */
function closed(inQuote: boolean): BlockRecord {
  return { kind: CLOSE, value: '', cells: undefined, depth: 0, level: 0, first: false, header: false, inQuote, position: NO_POSITION, phrasing: undefined, checked: undefined };
}
const CLOSED = closed(false);
const CLOSED_IN_QUOTE = closed(true);

/** The facts of a simple document, each kind read from its blocks when first asked for. */
class SimpleFacts implements ArtifactFacts {
  // Declared only: every key is made in the constructor, in the order facts always have them.
  declare readonly lineCount: number;
  declare readonly empty: boolean;
  declare readonly frontMatter: FrontMatter | undefined;
  declare readonly sections: readonly Section[];
  declare readonly tasks: readonly Task[];
  declare readonly tables: readonly Table[];
  declare readonly statements: readonly Statement[];
  declare readonly diagnostics: readonly Diagnostic[];
  readonly #records: readonly BlockRecord[];
  #sections: readonly Section[] | undefined;
  #tasks: readonly Task[] | undefined;
  #tables: readonly Table[] | undefined;
  #statements: readonly Statement[] | undefined;

  // Each kind is read through the same getter for every instance, so that all facts share one
  // shape; the getters are the objects' own properties, which JSON and equality see.
  static readonly #kinds: Readonly<Record<'sections' | 'tasks' | 'tables' | 'statements', PropertyDescriptor>> = {
    sections: { enumerable: true, get: function (this: SimpleFacts) { return (this.#sections ??= sectionsOf(this.#records)); } },
    tasks: { enumerable: true, get: function (this: SimpleFacts) { return (this.#tasks ??= tasksOf(this.#records)); } },
    tables: { enumerable: true, get: function (this: SimpleFacts) { return (this.#tables ??= tablesOf(this.#records)); } },
    statements: { enumerable: true, get: function (this: SimpleFacts) { return (this.#statements ??= statementsOf(this.#records)); } },
  };

  /** Whether the statements or the tasks have been read from the blocks yet. */
  static wasRead(facts: SimpleFacts, part: 'statements' | 'tasks'): boolean {
    return (part === 'statements' ? facts.#statements : facts.#tasks) !== undefined;
  }

  constructor(lineCount: number, empty: boolean, frontMatter: FrontMatter | undefined, records: readonly BlockRecord[], diagnostics: readonly Diagnostic[]) {
    this.#records = records;
    const self = this as { -readonly [K in keyof ArtifactFacts]: ArtifactFacts[K] };
    self.lineCount = lineCount;
    self.empty = empty;
    self.frontMatter = frontMatter;
    const kinds = SimpleFacts.#kinds;
    Object.defineProperty(this, 'sections', kinds.sections);
    Object.defineProperty(this, 'tasks', kinds.tasks);
    Object.defineProperty(this, 'tables', kinds.tables);
    Object.defineProperty(this, 'statements', kinds.statements);
    self.diagnostics = diagnostics;
  }
}

/**
 * Whether a part of freshly extracted facts has been read: `statements`, `tasks`, or the items
 * of one of their sections. A simple document's parts are read when first asked for; facts of
 * any other kind are read whole, and every part of them has been.
 */
export function extractedPartWasRead(facts: ArtifactFacts, part: FactsPart): boolean {
  if (typeof part === 'object') return !(part instanceof SimpleSection) || SimpleSection.itemsWereRead(part);
  return !(facts instanceof SimpleFacts) || SimpleFacts.wasRead(facts, part);
}

/** A paragraph's or heading's inline content as the tree holds it: an item's first paragraph without its task check. */
function phrasingOf(record: BlockRecord): readonly PhrasingContent[] {
  if (record.phrasing === undefined) {
    const task = record.first && record.kind === PARAGRAPH ? taskParagraph(record.value, record.position.line, record.position.column, simplePhrasing) : undefined;
    record.checked = task?.checked;
    record.phrasing = task ? task.paragraph.children : simplePhrasing(record.value, record.position.line);
  }
  return record.phrasing;
}

/** A table row's cells: most rows are never read cell by cell. */
function cellsOf(record: BlockRecord): readonly string[] {
  return (record.cells ??= splitCells(record.value));
}

function titleOf(record: BlockRecord): string {
  return phrasingText(phrasingOf(record)).trim();
}

/**
 * Whether a block at the root or in a list (never in a quote) has content. A paragraph whose text
 * opens with a character no placeholder opens with does, without its inline content read: a
 * letter or digit opens its first text (no inline syntax starts with one).
 */
function substantive(record: BlockRecord): boolean {
  switch (record.kind) {
    case PARAGRAPH:
      return opensNoPlaceholder(record.value.charCodeAt(0)) || isSubstantivePhrasing(phrasingOf(record));
    case CODE:
      return !isBlank(record.value);
    case HTML:
      return !isInertHtml(record.value);
    case ROW:
      return !record.header && cellsOf(record).some((cell) => !isPlaceholderText(phrasingText(simpleCellPhrasing(cell))));
    default:
      return false;
  }
}

/**
 * A list item of a list at the root, whose entry a section holds: its first block, and the first
 * blocks of the items of the lists in it. Its entry is read once, when a section's items are.
 */
interface ItemSource {
  readonly first: number;
  readonly nested: number[];
  entry: ListEntry | undefined;
}

/** A section whose heading has been read and whose content may still follow. */
interface OpenSection {
  readonly section: SimpleSection;
  /** The title of the last heading read in it, which the lists after it sit under. */
  under: string | undefined;
}

/**
 * A section of a simple document. Its items are read when first asked for: most gates read a
 * section's emptiness, and the items of one section.
 */
class SimpleSection implements Section {
  declare readonly title: string;
  declare readonly depth: Section['depth'];
  declare readonly position: Position;
  declare empty: boolean;
  declare readonly items: readonly ListEntry[];
  readonly #records: readonly BlockRecord[];
  readonly #sources: { readonly source: ItemSource; readonly under: string | undefined }[] = [];
  #items: readonly ListEntry[] | undefined;

  static readonly #itemsOnFirstUse: PropertyDescriptor = { enumerable: true, get: function (this: SimpleSection) { return (this.#items ??= this.#sources.map(({ source, under }) => entryIn(this.#records, source, under))); } };

  constructor(title: string, depth: Section['depth'], position: Position, records: readonly BlockRecord[]) {
    this.#records = records;
    const self = this as { -readonly [K in keyof Section]: Section[K] };
    self.title = title;
    self.depth = depth;
    self.position = position;
    self.empty = true;
    Object.defineProperty(this, 'items', SimpleSection.#itemsOnFirstUse);
  }

  /** Whether the section's items have been read from the blocks yet. */
  static itemsWereRead(section: SimpleSection): boolean {
    return section.#items !== undefined;
  }

  /** An item of a list at the root in the section, under the subsection `under` if any. */
  hold(source: ItemSource, under: string | undefined): void {
    this.#sources.push({ source, under });
  }
}

/** The entry of a list item of a list at the root, as a section under `under` holds it. */
function entryIn(records: readonly BlockRecord[], source: ItemSource, under: string | undefined): ListEntry {
  source.entry ??= entryOf(records, source.first, source.nested.map((first) => entryOf(records, first, [])));
  return under === undefined ? source.entry : withUnder(source.entry, under);
}

/** A list item's entry, from its first block (right after the item) and the entries of the items in it. */
function entryOf(records: readonly BlockRecord[], first: number, children: readonly ListEntry[]): ListEntry {
  const record = records[first] as BlockRecord;
  const paragraph = record.kind === PARAGRAPH ? phrasingOf(record) : undefined;
  return listEntryOf(paragraph, paragraph ? phrasingText(paragraph) : '', children, (records[first - 1] as BlockRecord).position);
}

/**
 * Sections as the extraction from the tree reads them: one at each heading at the root, holding
 * every block at the root until a heading as high; empty unless one of them has content (a list
 * by what its items hold); its items, the entries of the lists at the root in it.
 */
function sectionsOf(records: readonly BlockRecord[]): Section[] {
  const sections: SimpleSection[] = [];
  const open: OpenSection[] = [];
  let emptyOpen = 0;
  // For each open list item (the first `items`): whether its first block has been read, and for
  // an item of a list at the root, what its entry is read from. Counted, not pushed and popped.
  const started: boolean[] = [];
  const sources: (ItemSource | undefined)[] = [];
  let items = 0;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as BlockRecord;
    if (record.inQuote) continue;
    if (record.kind === ITEM) {
      started[items] = false;
      sources[items] = undefined;
      items += 1;
      continue;
    }
    if (record.kind === CLOSE) {
      if (items > 0) items -= 1;
      continue;
    }
    if (record.kind === HEADING && record.depth === 0) {
      const title = titleOf(record);
      while (open.length > 0 && (open[open.length - 1] as OpenSection).section.depth >= record.level) {
        if ((open.pop() as OpenSection).section.empty) emptyOpen -= 1;
      }
      for (let at = 0; at < open.length; at += 1) (open[at] as OpenSection).under = title;
      const section = new SimpleSection(title, record.level as Section['depth'], record.position, records);
      sections.push(section);
      open.push({ section, under: undefined });
      emptyOpen += 1;
      continue;
    }
    if (emptyOpen > 0 && substantive(record)) {
      for (let at = 0; at < open.length; at += 1) (open[at] as OpenSection).section.empty = false;
      emptyOpen = 0;
    }
    // An item's first block gives its entry: in every open section for an item of a list at the root, in its item's for one nested in it.
    if (record.depth === 0 || items === 0 || started[items - 1] !== false || (record.kind !== PARAGRAPH && record.kind !== HEADING)) continue;
    started[items - 1] = true;
    if (record.depth === 1) {
      const source: ItemSource = { first: index, nested: [], entry: undefined };
      sources[items - 1] = source;
      for (let at = 0; at < open.length; at += 1) {
        const { section, under } = open[at] as OpenSection;
        section.hold(source, under);
      }
    } else if (record.depth === 2 && items >= 2) sources[items - 2]?.nested.push(index);
  }
  return sections;
}

/** Every list item that is a task, in document order. */
function tasksOf(records: readonly BlockRecord[]): Task[] {
  const tasks: Task[] = [];
  for (let index = 1; index < records.length; index += 1) {
    const record = records[index] as BlockRecord;
    if (record.kind !== PARAGRAPH || !record.first) continue;
    const position = (records[index - 1] as BlockRecord).position;
    // A GFM check is told from the content as written; any other marker from the item's text.
    const check = taskCheck(record.value);
    const task = check !== undefined ? new CheckedTask(isTicked(check), () => phrasingText(phrasingOf(record)), position) : taskOf(undefined, phrasingText(phrasingOf(record)), position);
    if (task) tasks.push(task);
  }
  return tasks;
}

/** The tables, each under the title of the last heading before it (in a list item too). */
function tablesOf(records: readonly BlockRecord[]): Table[] {
  const tables: Table[] = [];
  let heading: string | undefined;
  let table: Table | undefined;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as BlockRecord;
    if (record.kind === HEADING && !record.inQuote) heading = titleOf(record);
    else if (record.kind === ROW) {
      const cells = cellsOf(record).map((cell) => phrasingText(simpleCellPhrasing(cell)).trim());
      if (record.header) {
        table = { section: heading, header: cells, rows: [], position: record.position };
        tables.push(table);
      } else (table?.rows as Table['rows'][number][]).push({ cells, position: record.position });
    }
  }
  return tables;
}

/**
 * The statements: each paragraph at the root, and the first paragraph of each list item at any
 * depth, under the title of the last heading at the root.
 */
function statementsOf(records: readonly BlockRecord[]): Statement[] {
  const statements: Statement[] = [];
  let section: string | undefined;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as BlockRecord;
    if (record.inQuote) continue;
    if (record.kind === HEADING && record.depth === 0) section = titleOf(record);
    else if (record.kind === PARAGRAPH && (record.depth === 0 || record.first)) {
      const paragraph = phrasingOf(record);
      const position = record.depth === 0 ? record.position : (records[index - 1] as BlockRecord).position;
      const statement = statementOf(paragraph, phrasingText(paragraph), section, record.depth, position);
      if (statement) statements.push(statement);
    }
  }
  return statements;
}
