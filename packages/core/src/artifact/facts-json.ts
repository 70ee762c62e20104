import { RULE_IDS } from '../diagnostic.js';
import { extractedPartWasRead } from './simple-facts.js';
import type { ArtifactFacts, FactsPart, Section } from './types.js';

/**
 * The version of the JSON facts are written as. Bumped whenever the same facts would be written
 * differently, so that entries of an older form are read afresh rather than misread.
 */
export const FACTS_JSON_FORMAT = 4;

// Facts as JSON are lines, each a JSON text of its own. The first holds what every run reads:
// the line count, front-matter, the sections' headings, tables and diagnostics. The others hold
// what most runs never read, and are parsed and checked on first use (decision 147): the
// statements, the tasks, and each section's list items, one line a section. Tasks and items are
// written whole, so that reading one part never needs another.

// The shape of facts read back from a cache entry, checked by hand: this runs for the cached
// artifacts of every warm run, over tens of thousands of objects, mostly in a process whose code
// has not warmed up. So each shape is a plain function of plain loops: valibot took ten times
// as long (decision 064), and combinators of closures five times (decision 142). The valibot
// schema it must agree with is the test's oracle (facts-json.test.ts).
type Json = Record<string, unknown>;

const RULES = new Set<string>(RULE_IDS);
const POSITION_KEYS = new Set(['line', 'column']);
const ENTRY_KEYS = new Set(['text', 'lead', 'marked', 'children', 'under', 'position']);
const HEADING_KEYS = new Set(['title', 'depth', 'position', 'empty']);
const TASK_KEYS = new Set(['text', 'done', 'marker', 'optional', 'position']);
const ROW_KEYS = new Set(['cells', 'position']);
const TABLE_KEYS = new Set(['section', 'header', 'rows', 'position']);
const STATEMENT_KEYS = new Set(['text', 'lead', 'section', 'listDepth', 'position']);
const DIAGNOSTIC_KEYS = new Set(['ruleId', 'severity', 'message', 'file', 'line', 'column', 'node', 'expected', 'actual', 'fix', 'url']);
const FRONT_MATTER_KEYS = new Set(['data', 'positions', 'position', 'yaml', 'firstLine']);
const HEAD_KEYS = new Set(['lineCount', 'empty', 'frontMatter', 'sections', 'tables', 'diagnostics']);

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether every key of the object is one of `known`. */
function onlyKeys(value: Json, known: ReadonlySet<string>): boolean {
  for (const key in value) if (!known.has(key)) return false;
  return true;
}

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isPosition(value: unknown): boolean {
  return isObject(value) && isCount(value['line']) && isCount(value['column']) && onlyKeys(value, POSITION_KEYS);
}

function arrayOf(value: unknown, item: (value: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i += 1) if (!item(value[i])) return false;
  return true;
}

function isStrings(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i += 1) if (typeof value[i] !== 'string') return false;
  return true;
}

// A list item as facts hold it: its nested items are one level deep, so the children's children
// are an empty list.
function isListEntry(value: unknown, nested: boolean): boolean {
  if (!isObject(value)) return false;
  const children = value['children'];
  if (!Array.isArray(children) || (nested && children.length > 0)) return false;
  for (let i = 0; i < children.length; i += 1) if (!isListEntry(children[i], true)) return false;
  return (
    typeof value['text'] === 'string' &&
    isOptionalString(value['lead']) &&
    isOptionalString(value['marked']) &&
    isOptionalString(value['under']) &&
    isPosition(value['position']) &&
    onlyKeys(value, ENTRY_KEYS)
  );
}

function isItem(value: unknown): boolean {
  return isListEntry(value, false);
}

// A section's heading: its items are a line of their own.
function isHeading(value: unknown): boolean {
  if (!isObject(value)) return false;
  const depth = value['depth'];
  return (
    typeof value['title'] === 'string' &&
    Number.isInteger(depth) &&
    (depth as number) >= 1 &&
    (depth as number) <= 6 &&
    isPosition(value['position']) &&
    typeof value['empty'] === 'boolean' &&
    onlyKeys(value, HEADING_KEYS)
  );
}

function isTask(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value['text'] === 'string' &&
    typeof value['done'] === 'boolean' &&
    typeof value['marker'] === 'string' &&
    typeof value['optional'] === 'boolean' &&
    isPosition(value['position']) &&
    onlyKeys(value, TASK_KEYS)
  );
}

function isRow(value: unknown): boolean {
  return isObject(value) && isStrings(value['cells']) && isPosition(value['position']) && onlyKeys(value, ROW_KEYS);
}

function isTable(value: unknown): boolean {
  return (
    isObject(value) &&
    isOptionalString(value['section']) &&
    isStrings(value['header']) &&
    arrayOf(value['rows'], isRow) &&
    isPosition(value['position']) &&
    onlyKeys(value, TABLE_KEYS)
  );
}

function isStatement(value: unknown): boolean {
  if (!isObject(value)) return false;
  const listDepth = value['listDepth'];
  return (
    typeof value['text'] === 'string' &&
    isOptionalString(value['lead']) &&
    isOptionalString(value['section']) &&
    Number.isInteger(listDepth) &&
    (listDepth as number) >= 0 &&
    isPosition(value['position']) &&
    onlyKeys(value, STATEMENT_KEYS)
  );
}

function isDiagnostic(value: unknown): boolean {
  if (!isObject(value)) return false;
  const optionalCount = (key: string) => value[key] === undefined || isCount(value[key]);
  return (
    typeof value['ruleId'] === 'string' &&
    RULES.has(value['ruleId']) &&
    (value['severity'] === 'error' || value['severity'] === 'warning') &&
    typeof value['message'] === 'string' &&
    typeof value['file'] === 'string' &&
    optionalCount('line') &&
    optionalCount('column') &&
    isOptionalString(value['node']) &&
    isOptionalString(value['expected']) &&
    isOptionalString(value['actual']) &&
    isOptionalString(value['fix']) &&
    typeof value['url'] === 'string' &&
    onlyKeys(value, DIAGNOSTIC_KEYS)
  );
}

function isFrontMatter(value: unknown): boolean {
  if (!isObject(value)) return false;
  const positions = value['positions'];
  if (!isObject(value['data']) || !isObject(positions)) return false;
  for (const key of Object.keys(positions)) if (!isPosition(positions[key])) return false;
  return isPosition(value['position']) && typeof value['yaml'] === 'string' && isCount(value['firstLine']) && onlyKeys(value, FRONT_MATTER_KEYS);
}

function isHead(value: unknown): boolean {
  return (
    isObject(value) &&
    isCount(value['lineCount']) &&
    typeof value['empty'] === 'boolean' &&
    (value['frontMatter'] === undefined || isFrontMatter(value['frontMatter'])) &&
    arrayOf(value['sections'], isHeading) &&
    arrayOf(value['tables'], isTable) &&
    arrayOf(value['diagnostics'], isDiagnostic) &&
    onlyKeys(value, HEAD_KEYS)
  );
}

/** What {@link factsToJson} writes of the parts after the head. */
export interface FactsJsonOptions {
  /**
   * Only the parts read so far (see {@link partWasRead}); each other is written as `null`, which
   * reading the facts back reads from the bytes when it is first asked for. A run that keeps the
   * facts of a file it has just read, once its gates are done, so spends nothing on parts no gate
   * of it read (decision 198).
   */
  readonly onlyRead?: boolean;
}

/**
 * Whether a part of the facts has been read. Facts read back from storage have read a part its
 * line holds, and one not kept there (`null`) once it has been asked for; freshly extracted facts
 * have read what has been asked for (a simple document's parts are read on first use).
 */
export function partWasRead(facts: ArtifactFacts, part: FactsPart): boolean {
  const stored = storedParts.get(facts);
  if (!stored) return extractedPartWasRead(facts, part);
  if (typeof part === 'string') return stored.wasRead(part === 'statements' ? 0 : 1);
  const section = facts.sections.indexOf(part);
  // A section of other facts is none of these facts' parts.
  return section !== -1 && stored.wasRead(2 + section);
}

/**
 * Whether facts read back from storage have taken a part from the bytes since: one not kept in
 * its line, or one whose line did not check. Written again, with what has been read, their entry
 * holds that part next time (decision 198).
 */
export function partsReadFromBytes(facts: ArtifactFacts): boolean {
  return storedParts.get(facts)?.fromBytes === true;
}

/**
 * Facts as JSON lines (none holding a line break): the head, then the statements, the tasks
 * and each section's items. Undefined when JSON would not give the facts back unchanged
 * (front-matter holding a number JSON cannot write, such as YAML's `.inf`): such facts are
 * not stored.
 */
export function factsToJson(facts: ArtifactFacts, { onlyRead = false }: FactsJsonOptions = {}): string[] | undefined {
  if (facts.frontMatter !== undefined && !survivesJson(facts.frontMatter.data)) return undefined;
  const { lineCount, empty, frontMatter, sections, tables, diagnostics } = facts;
  const headings = sections.map(({ title, depth, position, empty: blank }) => ({ title, depth, position, empty: blank }));
  const head = JSON.stringify({ lineCount, empty, frontMatter, sections: headings, tables, diagnostics });
  const written = (part: FactsPart, value: () => unknown): string => (onlyRead && !partWasRead(facts, part) ? NOT_KEPT : JSON.stringify(value()));
  return [
    head,
    written('statements', () => facts.statements),
    written('tasks', () => facts.tasks),
    ...sections.map((section) => written(section, () => section.items)),
  ];
}

// A part written without its value: it had not been read when the facts were kept.
const NOT_KEPT = 'null';

/** Facts as read from storage: the head parsed, the other lines to be read on first use. */
export interface StoredFacts {
  readonly head: unknown;
  /** How many lines follow the head. */
  readonly parts: number;
  /** The text of a line after the head: 0 the statements, 1 the tasks, 2 + n the items of section n. */
  part(index: number): string;
}

/**
 * Facts read back from storage, or undefined when the head is not facts of this shape or the
 * lines are not as many as its sections need. Each other line is parsed and checked when its
 * part is first read; one written without its value (`null`), or that is not JSON of its shape,
 * is never used: the facts are extracted again from the bytes (`reparse`) and the part is taken
 * from them.
 */
export function factsFromJson(stored: StoredFacts, reparse: () => ArtifactFacts): ArtifactFacts | undefined {
  if (!isHead(stored.head)) return undefined;
  const head = stored.head as Json;
  if (stored.parts !== 2 + (head['sections'] as unknown[]).length) return undefined;
  const parts = new StoredParts(stored, reparse);
  const statements = parts.onFirstUse(0, isStatement, (fresh) => fresh.statements);
  const tasks = parts.onFirstUse(1, isTask, (fresh) => fresh.tasks);
  const sections = (head['sections'] as Json[]).map((heading, n): Section => {
    const items = parts.onFirstUse(2 + n, isItem, (fresh) => {
      const section = fresh.sections[n];
      // Only a head that does not describe these bytes gets here with another section.
      if (section === undefined || section.title !== heading['title']) throw new Error('cached facts do not match the bytes they were read from');
      return section.items;
    });
    return {
      ...(heading as unknown as Omit<Section, 'items'>),
      get items() {
        return items();
      },
    };
  });
  const facts: ArtifactFacts = {
    lineCount: head['lineCount'] as number,
    empty: head['empty'] as boolean,
    frontMatter: head['frontMatter'] as ArtifactFacts['frontMatter'],
    sections,
    get tasks() {
      return tasks();
    },
    tables: head['tables'] as ArtifactFacts['tables'],
    get statements() {
      return statements();
    },
    diagnostics: head['diagnostics'] as ArtifactFacts['diagnostics'],
  };
  storedParts.set(facts, parts);
  return facts;
}

// The parts of each facts read back from storage, kept beside them rather than in them, so that
// they compare and print as any other facts.
const storedParts = new WeakMap<ArtifactFacts, StoredParts>();

/**
 * The parts after the head of facts read back from storage, each parsed and checked when first
 * asked for; the facts extracted again from the bytes (`reparse`, at most once) for a part whose
 * line does not give it.
 */
class StoredParts {
  // The facts read from the bytes, once a part needed them.
  private fresh: ArtifactFacts | undefined;
  // The parts asked for so far, by line.
  private readonly asked = new Set<number>();

  constructor(
    private readonly stored: StoredFacts,
    private readonly reparse: () => ArtifactFacts,
  ) {}

  /** Whether a part has been taken from the bytes. */
  get fromBytes(): boolean {
    return this.fresh !== undefined;
  }

  /** The part on line `index` when first asked for: `fromBytes` of the facts read again when its line is not a list of `item` (or was not kept, `null`). */
  onFirstUse<T>(index: number, item: (value: unknown) => boolean, fromBytes: (fresh: ArtifactFacts) => readonly T[]): () => readonly T[] {
    let value: readonly T[] | undefined;
    return () => {
      if (value === undefined) {
        this.asked.add(index);
        let read: unknown;
        try {
          read = JSON.parse(this.stored.part(index));
        } catch {
          read = undefined;
        }
        value = arrayOf(read, item) ? (read as T[]) : fromBytes((this.fresh ??= this.reparse()));
      }
      return value;
    };
  }

  /** Whether the part on line `index` has been read: asked for, or held by its line. */
  wasRead(index: number): boolean {
    return this.asked.has(index) || this.stored.part(index) !== NOT_KEPT;
  }
}

function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(survivesJson);
  if (value !== null && typeof value === 'object') return Object.values(value).every((entry) => entry === undefined || survivesJson(entry)) && !(value instanceof Date);
  return true;
}
