import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { builtOnFirstUse } from './built-on-first-use.js';

// A schema with every kind of part the modules build: nested objects, records, arrays, pipes,
// optional defaults, unions, literals and a check with a message of its own.
function makeSchema() {
  const text = v.pipe(v.string(), v.minLength(1, 'must not be empty'));
  const entry = v.strictObject({ name: text, count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 1) });
  return v.strictObject({
    version: v.literal(1),
    entries: v.array(entry),
    byName: v.record(v.string(), entry),
    kind: v.union([v.literal('a'), v.strictObject({ other: text })]),
    path: v.optional(v.pipe(v.string(), v.check((path) => !path.startsWith('/'), 'must be relative'))),
  });
}

type Issue = v.BaseIssue<unknown>;

// What a caller sees of a result: its output and its issues as they read, without the checks'
// own functions (two builds of one schema make two of each).
function seen(result: { typed: boolean; success: boolean; output: unknown; issues?: readonly Issue[] | undefined }) {
  const issue = (found: Issue): unknown => ({
    kind: found.kind,
    type: found.type,
    input: found.input,
    expected: found.expected,
    received: found.received,
    message: found.message,
    path: found.path?.map(({ type, origin, key, value }) => ({ type, origin, key, value })),
    issues: found.issues?.map(issue),
  });
  return { typed: result.typed, success: result.success, output: result.output, issues: result.issues?.map(issue) };
}

describe('builtOnFirstUse', () => {
  it('builds nothing until something reads it, then builds once', () => {
    let builds = 0;
    const value = builtOnFirstUse(() => {
      builds += 1;
      return { a: 1, b: [2] };
    });
    expect(builds).toBe(0);
    expect(value.a).toBe(1);
    expect(value.b).toEqual([2]);
    expect('a' in value).toBe(true);
    expect(builds).toBe(1);
  });

  it('reads as the object it stands for: keys, descriptors, spread, JSON, prototype and methods', () => {
    class Base {
      twice(this: { n: number }): number {
        return this.n * 2;
      }
    }
    const built = Object.assign(new Base(), { n: 21, label: 'x' });
    const value = builtOnFirstUse(() => built);
    expect(Object.keys(value)).toEqual(['n', 'label']);
    expect({ ...value }).toEqual({ n: 21, label: 'x' });
    expect(JSON.stringify(value)).toBe(JSON.stringify(built));
    expect(Object.getPrototypeOf(value)).toBe(Base.prototype);
    expect(value instanceof Base).toBe(true);
    expect(value.twice()).toBe(42);
    expect(Object.getOwnPropertyDescriptor(value, 'n')?.value).toBe(21);
    expect('missing' in value).toBe(false);
  });

  it('answers what it was told it has without building, and refuses to stand for an object that disagrees', () => {
    let builds = 0;
    const section = builtOnFirstUse(
      () => {
        builds += 1;
        return v.strictObject({ a: v.string() });
      },
      { expects: 'Object' },
    );
    // Wrapping a schema reads what it expects: a section a file leaves out is never built.
    const optional = v.optional(section);
    expect(optional.expects).toBe('(Object | undefined)');
    expect(v.safeParse(v.strictObject({ section: optional }), {}).success).toBe(true);
    expect(builds).toBe(0);
    expect(v.safeParse(v.strictObject({ section: optional }), { section: { a: 1 } }).success).toBe(false);
    expect(builds).toBe(1);
    // A stand-in told something the object it stands for does not have.
    const liar = builtOnFirstUse<{ expects: string; type: string }>(() => v.string(), { expects: 'Object' });
    expect(liar.expects).toBe('Object');
    expect(() => liar.type).toThrow('a stand-in said its expects was Object, but what it stands for has string');
  });

  it('validates as the schema it stands for: the same output and the same issues, on any value', () => {
    const plain = makeSchema();
    const standIn = builtOnFirstUse(makeSchema);
    // Nested inside another schema too, as one module's schema is inside another's.
    const outerPlain = v.strictObject({ inner: makeSchema() });
    const outerStandIn = v.strictObject({ inner: standIn });
    const entry = fc.record({ name: fc.oneof(fc.string(), fc.integer()), count: fc.option(fc.integer({ min: -2, max: 3 }), { nil: undefined }) }, { requiredKeys: ['name'] });
    const candidate = fc.oneof(
      fc.record({
        version: fc.constantFrom(1, 2),
        entries: fc.array(entry, { maxLength: 3 }),
        byName: fc.dictionary(fc.string({ maxLength: 3 }), entry, { maxKeys: 3 }),
        kind: fc.oneof(fc.constant('a'), fc.constant('b'), fc.record({ other: fc.string({ maxLength: 2 }) })),
        path: fc.option(fc.constantFrom('a/b', '/abs', ''), { nil: undefined }),
      }),
      fc.anything(),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        expect(seen(v.safeParse(standIn, value, { abortEarly: false }))).toEqual(seen(v.safeParse(plain, value, { abortEarly: false })));
        expect(seen(v.safeParse(outerStandIn, { inner: value }))).toEqual(seen(v.safeParse(outerPlain, { inner: value })));
      }),
    );
    expect(Object.keys(standIn.entries)).toEqual(Object.keys(plain.entries));
  });
});
