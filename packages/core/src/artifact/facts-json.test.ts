import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../diagnostic.js';
import { factsFromJson, factsToJson, partsReadFromBytes, type StoredFacts } from './facts-json.js';
import type { ArtifactFacts } from './types.js';
import { extractFacts } from './parse-artifact.js';

// The shape of ArtifactFacts written as JSON lines (absent values are absent keys): the head,
// then the statements, the tasks and each section's items, as valibot states them. The oracle
// the hand-written checks in facts-json.ts must agree with.
const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const position = v.strictObject({ line: count, column: count });
// valibot's record passes over a `__proto__` key whatever it holds, and leaves it out of what it
// gives a later check: the key is looked for in the value as written. No key's position is
// anything but a position.
const positions = v.custom<Record<string, unknown>>(
  (value) => value !== null && typeof value === 'object' && !Object.hasOwn(value, '__proto__') && v.is(v.record(v.string(), position), value),
);
function listEntry<T extends v.GenericSchema>(children: T) {
  return v.strictObject({ text: v.string(), lead: v.optional(v.string()), marked: v.optional(v.string()), children, under: v.optional(v.string()), position });
}
const HeadSchema = v.strictObject({
  lineCount: count,
  empty: v.boolean(),
  frontMatter: v.optional(v.strictObject({ data: v.record(v.string(), v.unknown()), positions, position, yaml: v.string(), firstLine: count })),
  sections: v.array(v.strictObject({ title: v.string(), depth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(6)), position, empty: v.boolean() })),
  tables: v.array(v.strictObject({ section: v.optional(v.string()), header: v.array(v.string()), rows: v.array(v.strictObject({ cells: v.array(v.string()), position })), position })),
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
});
const StatementsSchema = v.array(v.strictObject({ text: v.string(), lead: v.optional(v.string()), section: v.optional(v.string()), listDepth: v.pipe(v.number(), v.integer(), v.minValue(0)), position }));
const TasksSchema = v.array(v.strictObject({ text: v.string(), done: v.boolean(), marker: v.string(), optional: v.boolean(), position }));
// A nested item's own children are always none: `strictTuple`, since valibot's `tuple` lets extra items pass.
const ItemsSchema = v.array(listEntry(v.array(listEntry(v.strictTuple([])))));
/** The schema of each line: the head, the statements, the tasks, then any section's items. */
const lineSchema = (line: number): v.GenericSchema => [HeadSchema, StatementsSchema, TasksSchema][line] ?? ItemsSchema;

/** Facts as storage gives them back: the head parsed, the other lines as text. */
function stored(lines: readonly string[]): StoredFacts {
  return { head: JSON.parse(lines[0] as string) as unknown, parts: lines.length - 1, part: (index) => lines[index + 1] as string };
}

const noReparse = (): ArtifactFacts => {
  throw new Error('parsed again');
};

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
        const lines = factsToJson(facts);
        expect(lines).toBeDefined();
        expect((lines as string[]).some((line) => line.includes('\n'))).toBe(false);
        expect(factsFromJson(stored(lines as string[]), noReparse)).toEqual(facts);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the schemas on facts changed anywhere: a value replaced or removed, a key added', () => {
    const replacement = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constantFrom(0, 1, 7, -1, 1.5, '', 'error', 'tasks-incomplete', [], {}));
    fc.assert(
      fc.property(markdownish, fc.nat(), fc.nat(), replacement, fc.option(fc.constantFrom('extra', 'line', 'position', '__proto__', 'lead', 'text')), (text, lineAt, at, value, extraKey) => {
        const facts = extractFacts(text);
        const lines = factsToJson(facts) as string[];
        const line = lineAt % lines.length;
        const written = JSON.parse(lines[line] as string) as unknown;
        const paths = pathsOf(written);
        const bad = changed(written, paths[at % paths.length] as (string | number)[], value, extraKey ?? undefined);
        // As written: a key whose value is undefined is left out, and a line of nothing is `null` to JSON.
        const badLine = JSON.stringify(bad) ?? 'null';
        const asWritten = JSON.parse(badLine) as unknown;
        const changedLines = lines.map((one, index) => (index === line ? badLine : one));
        if (line === 0) {
          // A head is also refused when its sections do not match the item lines that follow it.
          const matches = v.is(HeadSchema, asWritten) && changedLines.length === 3 + asWritten.sections.length;
          expect(factsFromJson(stored(changedLines), noReparse) !== undefined).toBe(matches);
          return;
        }
        // A part is checked when read: one its schema refuses is taken from the bytes instead.
        let reparsed = 0;
        const read = factsFromJson(stored(changedLines), () => {
          reparsed += 1;
          return facts;
        });
        expect(JSON.parse(JSON.stringify(read)) as unknown).toBeDefined();
        expect(reparsed).toBe(v.is(lineSchema(line), asWritten) ? 0 : 1);
        if (reparsed === 1) expect(read).toEqual(facts);
      }),
      // Found by earlier runs: an own `__proto__` key in the positions of empty front-matter; a nested
      // item's children given children of their own; a head whose sections were emptied.
      {
        numRuns: 500,
        examples: [
          ['---\n---', 0, 5, undefined, '__proto__'],
          ['- [ ]* optional\n# T\n## Security design\n| 1 | 2 |\n- `AC1` lead\n  - nested `code`\n### Abuse cases', 3, 9, [null], null],
          ['n: 3\n---', 0, 2130706425, [], null],
        ],
      },
    );
  });

  it('keeps only the parts read so far when asked, and reads the others from the bytes when they are first asked for', () => {
    fc.assert(
      fc.property(markdownish, fc.boolean(), fc.boolean(), fc.array(fc.boolean(), { maxLength: 8 }), (text, statements, tasks, items) => {
        const facts = extractFacts(text);
        // Read before the facts are written, as gates read them.
        if (statements) expect(facts.statements).toBeDefined();
        if (tasks) expect(facts.tasks).toBeDefined();
        facts.sections.forEach((section, n) => items[n] === true && expect(section.items).toBeDefined());
        const lines = factsToJson(facts, { onlyRead: true }) as string[];
        expect(lines).toHaveLength(3 + facts.sections.length);
        let reparsed = 0;
        const read = factsFromJson(stored(lines), () => {
          reparsed += 1;
          return extractFacts(text);
        }) as ArtifactFacts;
        // What was read before the facts were written is read back without the bytes.
        if (statements) expect(read.statements).toEqual(facts.statements);
        if (tasks) expect(read.tasks).toEqual(facts.tasks);
        read.sections.forEach((section, n) => items[n] === true && expect(section.items).toEqual(facts.sections[n]?.items));
        expect(reparsed).toBe(0);
        // And every other part from them, the same as ever.
        expect(read).toEqual(facts);
        expect(reparsed).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('writes facts read back from storage again with the parts they have read, and tells when the bytes gave one', () => {
    fc.assert(
      fc.property(markdownish, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (text, keptStatements, keptTasks, askStatements, askTasks) => {
        const facts = extractFacts(text);
        if (keptStatements) expect(facts.statements).toBeDefined();
        if (keptTasks) expect(facts.tasks).toBeDefined();
        const lines = factsToJson(facts, { onlyRead: true }) as string[];
        const read = factsFromJson(stored(lines), () => extractFacts(text)) as ArtifactFacts;
        if (askStatements) expect(read.statements).toEqual(facts.statements);
        if (askTasks) expect(read.tasks).toEqual(facts.tasks);
        // The bytes gave a part exactly when one asked for was not kept.
        expect(partsReadFromBytes(read)).toBe((askStatements && lines[1] === 'null') || (askTasks && lines[2] === 'null'));
        const part = (line: number, asked: boolean, value: unknown): string => (lines[line] !== 'null' || asked ? JSON.stringify(value) : 'null');
        expect(factsToJson(read, { onlyRead: true })).toEqual([lines[0], part(1, askStatements, facts.statements), part(2, askTasks, facts.tasks), ...lines.slice(3)]);
        expect(partsReadFromBytes(facts)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('writes a simple document\'s parts that were not read yet as null, and every part otherwise', () => {
    const text = '# T\n\n- [ ] a\n- [x] b\n\n## U\n\n- one\n';
    const facts = extractFacts(text);
    expect(facts.sections[1]?.items).toHaveLength(1);
    expect((factsToJson(facts, { onlyRead: true }) as string[]).slice(1)).toEqual(['null', 'null', 'null', JSON.stringify(facts.sections[1]?.items)]);
    const whole = factsToJson(extractFacts(text)) as string[];
    expect(whole.slice(1).includes('null')).toBe(false);
    expect(factsFromJson(stored(whole), noReparse)).toEqual(facts);
  });

  it('parses and checks a part only when it is first read', () => {
    const text = '# T\n\n- [ ] a\n- [x] b\n\n## U\n\nSome text.\n';
    const facts = extractFacts(text);
    const lines = (factsToJson(facts) as string[]).map((line, index) => (index === 0 ? line : 'not JSON'));
    let reparsed = 0;
    const read = factsFromJson(stored(lines), () => {
      reparsed += 1;
      return facts;
    }) as ArtifactFacts;
    expect([read.lineCount, read.sections.map((section) => section.title), reparsed]).toEqual([facts.lineCount, ['T', 'U'], 0]);
    expect(read.tasks).toEqual(facts.tasks);
    expect(read.sections[1]?.items).toEqual([]);
    expect(read.statements).toEqual(facts.statements);
    // The bytes are parsed again once, whatever parts turn out corrupt.
    expect(reparsed).toBe(1);
  });

  it('does not write front-matter that JSON would change (a non-finite number)', () => {
    const facts = extractFacts('---\nbudget: .inf\n---\n# T\n');
    expect(facts.frontMatter?.data['budget']).toBe(Infinity);
    expect(factsToJson(facts)).toBeUndefined();
  });

  it('refuses anything that is not facts: another shape, a wrong type, an unknown rule, an extra key, a line short', () => {
    const lines = factsToJson(extractFacts('# T\n\n- [ ] a\n')) as string[];
    const good = JSON.parse(lines[0] as string) as Record<string, unknown>;
    const rest = lines.slice(1);
    expect(factsFromJson({ head: good, parts: rest.length, part: (index) => rest[index] as string }, noReparse)).toBeDefined();
    expect(factsFromJson({ head: good, parts: rest.length - 1, part: (index) => rest[index] as string }, noReparse)).toBeUndefined();
    for (const bad of [null, 'text', [], { ...good, tables: 'none' }, { ...good, lineCount: 0 }, { ...good, extra: 1 }, { ...good, tasks: [] }, { ...good, diagnostics: [{ ruleId: 'made-up', severity: 'error', message: '', file: '', url: '' }] }]) {
      expect(factsFromJson({ head: bad, parts: rest.length, part: (index) => rest[index] as string }, noReparse)).toBeUndefined();
    }
  });
});
