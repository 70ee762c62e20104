import { RULE_IDS } from '../diagnostic.js';
import type { Position } from '../diagnostic.js';
import type { ArtifactFacts, ListEntry, Section, Statement, Task } from './types.js';

/**
 * The version of the JSON facts are written as. Bumped whenever the same facts would be written
 * differently, so that entries of an older form are read afresh rather than misread.
 */
export const FACTS_JSON_FORMAT = 2;

// Facts as JSON say each paragraph's text once. A list item's first paragraph and a task's text
// are statements too, at the same position: such an item or task is written as the index of its
// statement (`s`) and what only it holds, and takes its text, lead-in and position back from the
// statement when read. One whose text differs from its statement's (a loose marker such as `[~]`
// stays in the item's text) is written whole. This halves the JSON a warm run reads (decision
// 142).

// The shape of facts read back from a cache entry, checked by hand: this runs for every cached
// artifact on every warm run, over tens of thousands of objects, mostly in a process whose code
// has not warmed up. So each shape is a plain function of plain loops: valibot took ten times
// as long (decision 064), and combinators of closures five times (decision 142). The valibot
// schema it must agree with is the test's oracle (facts-json.test.ts).
type Json = Record<string, unknown>;

const RULES = new Set<string>(RULE_IDS);
const POSITION_KEYS = new Set(['line', 'column']);
const ENTRY_KEYS = new Set(['text', 'lead', 'marked', 'children', 'under', 'position']);
const STORED_ENTRY_KEYS = new Set(['s', 'marked', 'children', 'under']);
const SECTION_KEYS = new Set(['title', 'depth', 'position', 'empty', 'items']);
const TASK_KEYS = new Set(['text', 'done', 'marker', 'optional', 'position']);
const STORED_TASK_KEYS = new Set(['s', 'done', 'marker', 'optional']);
const ROW_KEYS = new Set(['cells', 'position']);
const TABLE_KEYS = new Set(['section', 'header', 'rows', 'position']);
const STATEMENT_KEYS = new Set(['text', 'lead', 'section', 'listDepth', 'position']);
const DIAGNOSTIC_KEYS = new Set(['ruleId', 'severity', 'message', 'file', 'line', 'column', 'node', 'expected', 'actual', 'fix', 'url']);
const FRONT_MATTER_KEYS = new Set(['data', 'positions', 'position', 'yaml', 'firstLine']);
const FACTS_KEYS = new Set(['lineCount', 'empty', 'frontMatter', 'sections', 'tasks', 'tables', 'statements', 'diagnostics']);

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

/** A statement's index, for facts holding `statements` of them. */
function isIndex(value: unknown, statements: number): boolean {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < statements;
}

// A list item as facts hold it: its nested items are one level deep, so the children's children
// are an empty list. Written whole, or as its statement's index.
function isListEntry(value: unknown, nested: boolean, statements: number): boolean {
  if (!isObject(value)) return false;
  const children = value['children'];
  if (!Array.isArray(children) || (nested && children.length > 0)) return false;
  for (let i = 0; i < children.length; i += 1) if (!isListEntry(children[i], true, statements)) return false;
  if (!isOptionalString(value['marked']) || !isOptionalString(value['under'])) return false;
  if (value['s'] !== undefined) return isIndex(value['s'], statements) && onlyKeys(value, STORED_ENTRY_KEYS);
  return typeof value['text'] === 'string' && isOptionalString(value['lead']) && isPosition(value['position']) && onlyKeys(value, ENTRY_KEYS);
}

function isSection(value: unknown, statements: number): boolean {
  if (!isObject(value)) return false;
  const depth = value['depth'];
  const items = value['items'];
  if (!Array.isArray(items)) return false;
  for (let i = 0; i < items.length; i += 1) if (!isListEntry(items[i], false, statements)) return false;
  return (
    typeof value['title'] === 'string' &&
    Number.isInteger(depth) &&
    (depth as number) >= 1 &&
    (depth as number) <= 6 &&
    isPosition(value['position']) &&
    typeof value['empty'] === 'boolean' &&
    onlyKeys(value, SECTION_KEYS)
  );
}

function isTask(value: unknown, statements: number): boolean {
  if (!isObject(value) || typeof value['done'] !== 'boolean' || typeof value['marker'] !== 'string' || typeof value['optional'] !== 'boolean') return false;
  if (value['s'] !== undefined) return isIndex(value['s'], statements) && onlyKeys(value, STORED_TASK_KEYS);
  return typeof value['text'] === 'string' && isPosition(value['position']) && onlyKeys(value, TASK_KEYS);
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

function isStoredFacts(value: unknown): boolean {
  if (!isObject(value) || !arrayOf(value['statements'], isStatement)) return false;
  const statements = (value['statements'] as unknown[]).length;
  const sections = value['sections'];
  const tasks = value['tasks'];
  if (!Array.isArray(sections) || !Array.isArray(tasks)) return false;
  for (let i = 0; i < sections.length; i += 1) if (!isSection(sections[i], statements)) return false;
  for (let i = 0; i < tasks.length; i += 1) if (!isTask(tasks[i], statements)) return false;
  return (
    isCount(value['lineCount']) &&
    typeof value['empty'] === 'boolean' &&
    (value['frontMatter'] === undefined || isFrontMatter(value['frontMatter'])) &&
    arrayOf(value['tables'], isTable) &&
    arrayOf(value['diagnostics'], isDiagnostic) &&
    onlyKeys(value, FACTS_KEYS)
  );
}

/**
 * Facts as JSON, or undefined when JSON would not give them back unchanged (front-matter
 * holding a number JSON cannot write, such as YAML's `.inf`): such facts are not stored.
 */
export function factsToJson(facts: ArtifactFacts): string | undefined {
  if (facts.frontMatter !== undefined && !survivesJson(facts.frontMatter.data)) return undefined;
  // The first statement at each position: a list item's own, where it has one.
  const at = new Map<string, number>();
  facts.statements.forEach((statement, index) => {
    const key = positionKey(statement.position);
    if (!at.has(key)) at.set(key, index);
  });
  const statementOf = (text: string, position: Position): number | undefined => {
    const index = at.get(positionKey(position));
    return index !== undefined && (facts.statements[index] as Statement).text === text ? index : undefined;
  };
  const entry = (item: ListEntry): unknown => {
    const s = statementOf(item.text, item.position);
    const children = item.children.map(entry);
    if (s === undefined || (facts.statements[s] as Statement).lead !== item.lead) return { ...item, children };
    return { s, marked: item.marked, children, under: item.under };
  };
  const task = (one: Task): unknown => {
    const s = statementOf(one.text, one.position);
    return s === undefined ? one : { s, done: one.done, marker: one.marker, optional: one.optional };
  };
  return JSON.stringify({
    ...facts,
    sections: facts.sections.map((section) => ({ ...section, items: section.items.map(entry) })),
    tasks: facts.tasks.map(task),
  });
}

/** Facts read back from parsed JSON, or undefined when the value is not facts of this shape. */
export function factsFromJson(value: unknown): ArtifactFacts | undefined {
  if (!isStoredFacts(value)) return undefined;
  const stored = value as Json & { sections: Json[]; tasks: Json[]; statements: Statement[] };
  const { statements } = stored;
  const entry = (item: Json): ListEntry => {
    const children = (item['children'] as Json[]).map(entry);
    if (item['s'] === undefined) return { ...(item as unknown as ListEntry), children };
    const statement = statements[item['s'] as number] as Statement;
    // Keys in the order extraction gives them, absent ones absent.
    const read: { -readonly [K in keyof ListEntry]: ListEntry[K] } = { text: statement.text } as ListEntry;
    if (statement.lead !== undefined) read.lead = statement.lead;
    if (item['marked'] !== undefined) read.marked = item['marked'] as string;
    read.children = children;
    read.position = statement.position;
    if (item['under'] !== undefined) read.under = item['under'] as string;
    return read;
  };
  const task = (one: Json): Task => {
    if (one['s'] === undefined) return one as unknown as Task;
    const statement = statements[one['s'] as number] as Statement;
    return { text: statement.text, done: one['done'] as boolean, marker: one['marker'] as string, optional: one['optional'] as boolean, position: statement.position };
  };
  return {
    ...(stored as unknown as ArtifactFacts),
    sections: stored.sections.map((section): Section => ({ ...(section as unknown as Section), items: (section['items'] as Json[]).map(entry) })),
    tasks: stored.tasks.map(task),
  };
}

function positionKey(position: Position): string {
  return `${position.line}:${position.column}`;
}

function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(survivesJson);
  if (value !== null && typeof value === 'object') return Object.values(value).every((entry) => entry === undefined || survivesJson(entry)) && !(value instanceof Date);
  return true;
}
