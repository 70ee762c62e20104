import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../diagnostic.js';
import { factsFromJson, factsToJson } from './facts-json.js';
import { extractFacts } from './parse-artifact.js';

// The shape of ArtifactFacts written as JSON (absent values are absent keys; an item or a task
// whose text is its statement's given as the statement's index), as valibot states it: the
// oracle the hand-written check in facts-json.ts must agree with.
const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const position = v.strictObject({ line: count, column: count });
// valibot's record passes over a `__proto__` key whatever it holds, and leaves it out of what it
// gives a later check: the key is looked for in the value as written. No key's position is
// anything but a position.
const positions = v.custom<Record<string, unknown>>(
  (value) => value !== null && typeof value === 'object' && !Object.hasOwn(value, '__proto__') && v.is(v.record(v.string(), position), value),
);
const index = v.pipe(v.number(), v.integer(), v.minValue(0));
function listEntry<T extends v.GenericSchema>(children: T) {
  return v.union([
    v.strictObject({ text: v.string(), lead: v.optional(v.string()), marked: v.optional(v.string()), children, under: v.optional(v.string()), position }),
    v.strictObject({ s: index, marked: v.optional(v.string()), children, under: v.optional(v.string()) }),
  ]);
}
const task = { done: v.boolean(), marker: v.string(), optional: v.boolean() };
const FactsSchema = v.pipe(
  v.strictObject({
    lineCount: count,
    empty: v.boolean(),
    frontMatter: v.optional(v.strictObject({ data: v.record(v.string(), v.unknown()), positions, position, yaml: v.string(), firstLine: count })),
    sections: v.array(
      v.strictObject({ title: v.string(), depth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(6)), position, empty: v.boolean(), items: v.array(listEntry(v.array(listEntry(v.strictTuple([]))))) }),
    ),
    tasks: v.array(v.union([v.strictObject({ text: v.string(), ...task, position }), v.strictObject({ s: index, ...task })])),
    tables: v.array(v.strictObject({ section: v.optional(v.string()), header: v.array(v.string()), rows: v.array(v.strictObject({ cells: v.array(v.string()), position })), position })),
    statements: v.array(v.strictObject({ text: v.string(), lead: v.optional(v.string()), section: v.optional(v.string()), listDepth: v.pipe(v.number(), v.integer(), v.minValue(0)), position })),
    diagnostics: v.array(
      v.strictObject({
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
      }),
    ),
  }),
  // Every statement index names a statement.
  v.check((facts) => {
    const known = (item: object) => !('s' in item) || (item.s as number) < facts.statements.length;
    const entries = facts.sections.flatMap((section) => section.items.flatMap((item) => [item, ...item.children]));
    return [...entries, ...facts.tasks].every(known);
  }),
);

/** Every place in a JSON value, as a path of keys and indexes. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (value !== null && typeof value === 'object') return [path, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return [path];
}

/** A copy of `value` with the place at `path` replaced, removed (`undefined`), or given a new key. */
function changed(value: unknown, path: readonly (string | number)[], replacement: unknown, extraKey: string | undefined): unknown {
  if (path.length === 0) {
    if (extraKey !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) return { ...value, [extraKey]: replacement };
    return replacement;
  }
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const next = changed(copy[head], rest, replacement, extraKey);
  if (next !== undefined) copy[head] = next;
  else if (Array.isArray(copy)) copy.splice(head as number, 1);
  else delete copy[head];
  return copy;
}

const markdownish = fc
  .array(fc.constantFrom('---', 'status: draft', 'n: 3', '# T', '## Security design', '- [ ] a', '- [x] b', '* [~] c', '| a | b |', '|---|---|', '| 1 | 2 |', '- **Term**: x', '  - nested `code`', '### Abuse cases', '- [ ]* optional', 'text', '', 'key: [', '<!-- c -->', '> - [ ] quoted', '- `AC1` lead', '- **Lead** and more', '  - [x] nested'), { maxLength: 20 })
  .map((lines) => lines.join('\n'));

describe('facts as JSON', () => {
  it('reads back exactly what was written, for any document', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const facts = extractFacts(text);
        const json = factsToJson(facts);
        expect(json).toBeDefined();
        expect(factsFromJson(JSON.parse(json as string))).toEqual(facts);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the schema on facts changed anywhere: a value replaced or removed, a key added', () => {
    const replacement = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constantFrom(0, 1, 7, -1, 1.5, '', 'error', 'tasks-incomplete', [], {}));
    fc.assert(
      fc.property(markdownish, fc.nat(), replacement, fc.option(fc.constantFrom('extra', 'line', 'position', '__proto__', 'lead')), (text, at, value, extraKey) => {
        const facts = JSON.parse(factsToJson(extractFacts(text)) as string) as unknown;
        const paths = pathsOf(facts);
        const bad = changed(facts, paths[at % paths.length] as (string | number)[], value, extraKey ?? undefined);
        expect(factsFromJson(bad) !== undefined).toBe(v.is(FactsSchema, bad));
      }),
      // Found by earlier runs: an own `__proto__` key in the positions of empty front-matter; a nested
      // item's children given children of their own (valibot's `tuple` lets extra items pass).
      {
        numRuns: 500,
        examples: [
          ['---\n---', 5, undefined, '__proto__'],
          ['- [ ]* optional\n# T\n## Security design\n| 1 | 2 |\n- `AC1` lead\n  - nested `code`\n### Abuse cases', 1463236408, [null], null],
        ],
      },
    );
  });

  it('writes an item or a task whose text is its statement\'s as that statement, any other whole', () => {
    const text = '# T\n\n- [~] loose\n- **Lead** plain\n  - [x] nested\n\n> - [ ] quoted\n';
    const facts = extractFacts(text);
    const stored = JSON.parse(factsToJson(facts) as string) as { sections: { items: { s?: number; text?: string; children: { s?: number }[] }[] }[]; tasks: { s?: number; text?: string }[] };
    const items = stored.sections[0]?.items ?? [];
    expect(items.map((item) => (item.s === undefined ? item.text : item.s))).toEqual(['[~] loose', 1]);
    expect(items[1]?.children.map((child) => child.s)).toEqual([2]);
    expect(stored.tasks.map((one) => one.s ?? one.text)).toEqual([0, 2, 'quoted']);
    expect(factsFromJson(stored)).toEqual(facts);
  });

  it('does not write front-matter that JSON would change (a non-finite number)', () => {
    const facts = extractFacts('---\nbudget: .inf\n---\n# T\n');
    expect(facts.frontMatter?.data['budget']).toBe(Infinity);
    expect(factsToJson(facts)).toBeUndefined();
  });

  it('refuses anything that is not facts: another shape, a wrong type, an unknown rule, an extra key', () => {
    const good = JSON.parse(factsToJson(extractFacts('# T\n\n- [ ] a\n')) as string) as Record<string, unknown>;
    expect(factsFromJson(good)).toBeDefined();
    for (const bad of [null, 'text', [], { ...good, tasks: 'none' }, { ...good, lineCount: 0 }, { ...good, extra: 1 }, { ...good, diagnostics: [{ ruleId: 'made-up', severity: 'error', message: '', file: '', url: '' }] }]) {
      expect(factsFromJson(bad)).toBeUndefined();
    }
  });
});
