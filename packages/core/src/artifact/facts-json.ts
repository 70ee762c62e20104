import { RULE_IDS } from '../diagnostic.js';
import type { ArtifactFacts } from './types.js';

// The shape of facts read back from a cache entry, checked by hand: this runs for every cached
// artifact on every warm run, and valibot took ten times as long (decision 064). The valibot
// schema it must agree with is the test's oracle (facts-json.test.ts).
type Check = (value: unknown) => boolean;

const string: Check = (value) => typeof value === 'string';
const boolean: Check = (value) => typeof value === 'boolean';
const integer =
  (min: number, max = Number.POSITIVE_INFINITY): Check =>
  (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const oneOf = (values: readonly string[]): Check => {
  const known = new Set(values);
  return (value) => typeof value === 'string' && known.has(value);
};
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const array =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(item);
const record =
  (entry: Check): Check =>
  (value) =>
    isObject(value) && Object.values(value).every(entry);
/** An object with these keys and no others (an optional key may be absent). */
const exactly = (shape: Readonly<Record<string, Check>>): Check => {
  const keys = Object.keys(shape);
  return (value) => {
    if (!isObject(value)) return false;
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) return false;
    return keys.every((key) => (shape[key] as Check)(value[key]));
  };
};

const count = integer(1);
const position = exactly({ line: count, column: count });

const diagnostic = exactly({
  ruleId: oneOf(RULE_IDS),
  severity: oneOf(['error', 'warning']),
  message: string,
  file: string,
  line: optional(count),
  column: optional(count),
  node: optional(string),
  expected: optional(string),
  actual: optional(string),
  fix: optional(string),
  url: string,
});

// A list item as facts hold it: its nested items are one level deep, so the children's children
// are an empty list.
const listEntry = (children: Check): Check =>
  exactly({ text: string, lead: optional(string), marked: optional(string), children, under: optional(string), position });

const isFacts = exactly({
  lineCount: count,
  empty: boolean,
  frontMatter: optional(exactly({ data: record(() => true), positions: record(position), position, yaml: string, firstLine: count })),
  sections: array(exactly({ title: string, depth: integer(1, 6), position, empty: boolean, items: array(listEntry(array(listEntry(array(() => false))))) })),
  tasks: array(exactly({ text: string, done: boolean, marker: string, optional: boolean, position })),
  tables: array(exactly({ section: optional(string), header: array(string), rows: array(exactly({ cells: array(string), position })), position })),
  statements: array(exactly({ text: string, lead: optional(string), section: optional(string), listDepth: integer(0), position })),
  diagnostics: array(diagnostic),
});

/**
 * Facts as JSON, or undefined when JSON would not give them back unchanged (front-matter
 * holding a number JSON cannot write, such as YAML's `.inf`): such facts are not stored.
 */
export function factsToJson(facts: ArtifactFacts): string | undefined {
  return facts.frontMatter === undefined || survivesJson(facts.frontMatter.data) ? JSON.stringify(facts) : undefined;
}

/** Facts read back from parsed JSON, or undefined when the value is not facts of this shape. */
export function factsFromJson(value: unknown): ArtifactFacts | undefined {
  return isFacts(value) ? (value as ArtifactFacts) : undefined;
}

function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(survivesJson);
  if (value !== null && typeof value === 'object') return Object.values(value).every((entry) => entry === undefined || survivesJson(entry)) && !(value instanceof Date);
  return true;
}
