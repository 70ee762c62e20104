import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { schemaIssues, type IssueAt } from './schema-issues.js';

// Where each issue lands, and what it says, without a file: the path stands in for the position.
const at: IssueAt = (path, message) => ({ file: 'f.yaml', line: path.length, column: 1, message });
const messages = (schema: v.GenericSchema, value: unknown, options = {}) => {
  const result = v.safeParse(schema, value, { abortEarly: false });
  return result.success ? [] : schemaIssues(schema, result.issues, at, options).map((i) => i.message);
};

const Entry = v.pipe(v.strictObject({ name: v.string(), timeoutSeconds: v.optional(v.number()) }), v.check(() => true));
const Settings = v.strictObject({ critics: v.optional(v.array(Entry)), env: v.optional(v.record(v.string(), v.strictObject({ value: v.string() }))) });

describe('schemaIssues', () => {
  it('names an unknown key under the object that does not know it, with the known key meant', () => {
    expect(messages(Settings, { critcs: [] })).toEqual(['unknown key "critcs" (did you mean "critics"?)']);
    expect(messages(Settings, { critics: [{ name: 'a', timeoutSecond: 3 }] })).toEqual(['critics[0]: unknown key "timeoutSecond" (did you mean "timeoutSeconds"?)']);
    expect(messages(Settings, { env: { HOME: { valeu: 'x' } } })).toEqual(['env.HOME: missing key "value"', 'env.HOME: unknown key "valeu" (did you mean "value"?)']);
    expect(messages(Settings, { zzzzzz: 1 })).toEqual(['unknown key "zzzzzz"']);
  });

  it('names every unknown key of an object, though valibot stops at the first', () => {
    expect(messages(Settings, { critcs: [], envv: {}, critics: [{ name: 'a', nmae: 'b', timeout: 1 }] }).sort()).toEqual([
      'critics[0]: unknown key "nmae" (did you mean "name"?)',
      'critics[0]: unknown key "timeout"',
      'unknown key "critcs" (did you mean "critics"?)',
      'unknown key "envv" (did you mean "env"?)',
    ]);
  });

  it('names a missing key and a wrong value at their path, under the base the value sits at', () => {
    expect(messages(Settings, { critics: [{}] }, { base: ['reviews'] })).toEqual(['reviews.critics[0]: missing key "name"']);
    expect(messages(Settings, { critics: [{ name: 'a', timeoutSeconds: 'x' }] }, { base: ['reviews'] })).toEqual(['reviews.critics[0].timeoutSeconds: Invalid type: Expected number but received "x"']);
  });

  it('places each issue at its full path, and lets a caller name paths and give a better hint', () => {
    const result = v.safeParse(Settings, { critics: [{ nme: 'a' }] }, { abortEarly: false });
    if (result.success) throw new Error('expected issues');
    const found = schemaIssues(Settings, result.issues, at, { base: ['reviews'], describe: (path) => `<${path.length}>`, hint: (key) => (key === 'nme' ? ' (spell it name)' : undefined) });
    expect(found).toContainEqual({ file: 'f.yaml', line: 4, column: 1, message: '<3>: unknown key "nme" (spell it name)' });
  });
});
