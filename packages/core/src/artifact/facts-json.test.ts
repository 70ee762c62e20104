import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { factsFromJson, factsToJson } from './facts-json.js';
import { extractFacts } from './parse-artifact.js';

const markdownish = fc
  .array(fc.constantFrom('---', 'status: draft', 'n: 3', '# T', '## Security design', '- [ ] a', '- [x] b', '* [~] c', '| a | b |', '|---|---|', '| 1 | 2 |', '- **Term**: x', 'text', '', 'key: [', '<!-- c -->'), { maxLength: 20 })
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
