import type { PhrasingContent } from 'mdast';
import type { Position } from '../diagnostic.js';
import { isInertHtml, isPlaceholderText, isSubstantivePhrasing, mayHoldTemplatePrompts, phrasingText } from './content.js';
import { frontMatterFacts, listEntryOf, statementOf, taskOf, withUnder } from './fact-parts.js';
import { preparedMarkdown, readPhrasing } from './markdown-tree.js';
import { taskParagraph, unescapePipesInCode } from './mdast-nodes.js';
import { readSimpleBlocks, type BlockSink } from './simple-blocks.js';
import type { ArtifactFacts, ListEntry, Section, Statement, Table, Task } from './types.js';

/**
 * The facts of a document of simple block syntax (see simple-blocks.ts), read straight from its
 * blocks as the simple reader finds them, with no tree: exactly what the extraction from the
 * tree gives (simple-facts.property.test.ts). Undefined when the reader declines the document, and
 * when a template prompt may stand in it: where each is, only the tree's walk tells.
 */
export function simpleFacts(text: string, lineCount: number): ArtifactFacts | undefined {
  if (mayHoldTemplatePrompts(text)) return undefined;
  const { yaml, src } = preparedMarkdown(text);
  const sink = new FactsSink();
  if (!readSimpleBlocks(src, sink)) return undefined;
  const { frontMatter, diagnostics } = frontMatterFacts(yaml === undefined ? undefined : { value: yaml, position: { line: 1, column: 1 } }, text);
  return { lineCount, empty: text.trim() === '', frontMatter, sections: sink.sections, tasks: sink.tasks, tables: sink.tables, statements: sink.statements, diagnostics };
}

/** A section whose heading has been read and whose content may still follow. */
interface OpenSection {
  readonly section: { -readonly [K in keyof Section]: Section[K] } & { items: ListEntry[] };
  /** The title of the last heading read in it, which the lists after it sit under. */
  under: string | undefined;
}

/** An open list item, or block quote (`depth` 0). */
interface OpenContainer {
  /** 1 for an item of a list at the root, 2 for one nested in it, …; 0 for a block quote. */
  readonly depth: number;
  readonly position: Position;
  /** Whether its first block has been read. */
  started: boolean;
  /** The entries of the items of the lists in it (read for an item of a list at the root). */
  readonly entries: ListEntry[];
}

/**
 * Facts as the blocks arrive, in document order, each read as the extraction from the tree reads
 * it: sections open at a heading at the root and take the lists and the substance of every block
 * at the root until a heading as high; a list item's first paragraph gives its task, its entry and
 * its statement; tables take the title of the last heading before them; statements, that of the
 * last heading at the root.
 */
class FactsSink implements BlockSink {
  readonly sections: Section[] = [];
  readonly tasks: Task[] = [];
  readonly tables: Table[] = [];
  readonly statements: Statement[] = [];
  private readonly open: OpenSection[] = [];
  // Whether a section that is still open is empty so far: a block's substance is judged only then.
  private emptyOpen = 0;
  private readonly containers: OpenContainer[] = [];
  private rootHeading: string | undefined;
  private lastHeading: string | undefined;
  private table: Table | undefined;

  paragraph(content: string, line: number, column: number, first: boolean): void {
    const container = this.containers[this.containers.length - 1];
    // A block quote's paragraphs are guidance: none of the facts reads them.
    if (container?.depth === 0) return;
    const position = { line, column };
    if (!container) {
      const phrasing = readPhrasing(content, line, undefined);
      const text = phrasingText(phrasing);
      if (this.emptyOpen > 0 && isSubstantivePhrasing(phrasing)) this.substance();
      const statement = statementOf(phrasing, text, this.rootHeading, 0, position);
      if (statement) this.statements.push(statement);
      return;
    }
    const task = first ? taskParagraph(content, line, column, simplePhrasing) : undefined;
    const phrasing = task ? task.paragraph.children : readPhrasing(content, line, undefined);
    if (this.emptyOpen > 0 && isSubstantivePhrasing(phrasing)) this.substance();
    if (!first) return;
    container.started = true;
    const text = phrasingText(phrasing);
    const found = taskOf(task?.checked, text, container.position);
    if (found) this.tasks.push(found);
    const statement = statementOf(phrasing, text, this.rootHeading, container.depth, container.position);
    if (statement) this.statements.push(statement);
    this.entry(phrasing, text, container);
  }

  heading(depth: number, content: string, line: number, column: number): void {
    const container = this.containers[this.containers.length - 1];
    if (container?.depth === 0) return;
    const title = phrasingText(readPhrasing(content, line, undefined)).trim();
    this.lastHeading = title;
    if (container) {
      // A list item's first block that is no paragraph: the item is no task and says nothing.
      if (!container.started) {
        container.started = true;
        this.entry(undefined, '', container);
      }
      return;
    }
    this.rootHeading = title;
    const open = this.open;
    while (open.length > 0 && (open[open.length - 1] as OpenSection).section.depth >= depth) {
      if ((open.pop() as OpenSection).section.empty) this.emptyOpen -= 1;
    }
    for (let index = 0; index < open.length; index += 1) (open[index] as OpenSection).under = title;
    const section = { title, depth: depth as Section['depth'], position: { line, column }, empty: true, items: [] as ListEntry[] };
    this.sections.push(section);
    open.push({ section, under: undefined });
    this.emptyOpen += 1;
  }

  code(value: string): void {
    if (this.emptyOpen > 0 && value.trim() !== '') this.substance();
  }

  html(value: string): void {
    if (this.emptyOpen > 0 && !isInertHtml(value)) this.substance();
  }

  thematicBreak(): void {}

  tableRow(cells: readonly string[], line: number, column: number, header: boolean): void {
    const position = { line, column };
    const phrasings = cells.map((content) => unescapePipesInCode(simplePhrasing(content, 1)));
    const texts = phrasings.map((phrasing) => phrasingText(phrasing).trim());
    if (header) {
      this.table = { section: this.lastHeading, header: texts, rows: [], position };
      this.tables.push(this.table);
      return;
    }
    (this.table?.rows as Table['rows'][number][]).push({ cells: texts, position });
    if (this.emptyOpen > 0 && phrasings.some((phrasing) => !isPlaceholderText(phrasingText(phrasing)))) this.substance();
  }

  openQuote(): void {
    this.containers.push({ depth: 0, position: { line: 1, column: 1 }, started: true, entries: [] });
  }

  openItem(_ordered: boolean, _newList: boolean, line: number, column: number): void {
    this.containers.push({ depth: this.containers.length + 1, position: { line, column }, started: false, entries: [] });
  }

  closeContainer(): void {
    this.containers.pop();
  }

  /** A list item's entry: an item of a list at the root is in every open section; one nested in it, in its entry. */
  private entry(phrasing: readonly PhrasingContent[] | undefined, text: string, container: OpenContainer): void {
    if (container.depth === 1) {
      const entry = listEntryOf(phrasing, text, container.entries, container.position);
      for (let index = 0; index < this.open.length; index += 1) {
        const { section, under } = this.open[index] as OpenSection;
        section.items.push(under === undefined ? entry : withUnder(entry, under));
      }
    } else if (container.depth === 2) {
      (this.containers[this.containers.length - 2] as OpenContainer).entries.push(listEntryOf(phrasing, text, [], container.position));
    }
  }

  /** A block with content is in every open section. */
  private substance(): void {
    for (let index = 0; index < this.open.length; index += 1) (this.open[index] as OpenSection).section.empty = false;
    this.emptyOpen = 0;
  }
}

function simplePhrasing(content: string, line: number): PhrasingContent[] {
  return readPhrasing(content, line, undefined);
}
