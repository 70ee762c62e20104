import * as v from 'valibot';
import { RULE_IDS } from '../diagnostic.js';
import type { ArtifactFacts } from './types.js';

const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const position = v.strictObject({ line: count, column: count });

const DiagnosticSchema = v.strictObject({
  ruleId: v.picklist(RULE_IDS),
  severity: v.picklist(['error', 'warning']),
  message: v.string(),
  file: v.string(),
  line: v.optional(count),
  column: v.optional(count),
  node: v.optional(v.string()),
  expected: v.optional(v.string()),
  actual: v.optional(v.string()),
  fix: v.optional(v.string()),
  url: v.string(),
});

// A list item as facts hold it: its nested items are one level deep, so a schema for the
// children's children (an empty list) closes the shape.
function listEntry<T extends v.GenericSchema>(children: T) {
  return v.strictObject({
    text: v.string(),
    lead: v.optional(v.string()),
    marked: v.optional(v.string()),
    children,
    under: v.optional(v.string()),
    position,
  });
}

/** The shape of {@link ArtifactFacts} once written as JSON (absent values are absent keys). */
const ArtifactFactsSchema = v.strictObject({
  lineCount: count,
  empty: v.boolean(),
  frontMatter: v.optional(
    v.strictObject({ data: v.record(v.string(), v.unknown()), positions: v.record(v.string(), position), position, yaml: v.string(), firstLine: count }),
  ),
  sections: v.array(
    v.strictObject({
      title: v.string(),
      depth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(6)),
      position,
      empty: v.boolean(),
      items: v.array(listEntry(v.array(listEntry(v.tuple([]))))),
    }),
  ),
  tasks: v.array(v.strictObject({ text: v.string(), done: v.boolean(), marker: v.string(), optional: v.boolean(), position })),
  tables: v.array(
    v.strictObject({
      section: v.optional(v.string()),
      header: v.array(v.string()),
      rows: v.array(v.strictObject({ cells: v.array(v.string()), position })),
      position,
    }),
  ),
  statements: v.array(
    v.strictObject({
      text: v.string(),
      lead: v.optional(v.string()),
      section: v.optional(v.string()),
      listDepth: v.pipe(v.number(), v.integer(), v.minValue(0)),
      position,
    }),
  ),
  diagnostics: v.array(DiagnosticSchema),
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
  return v.is(ArtifactFactsSchema, value) ? (value as ArtifactFacts) : undefined;
}

function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(survivesJson);
  if (value !== null && typeof value === 'object') return Object.values(value).every((entry) => entry === undefined || survivesJson(entry)) && !(value instanceof Date);
  return true;
}
