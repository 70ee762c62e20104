import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, parseYaml } from './parse-yaml.js';
import { parseYamlSource } from './yaml-source.js';

describe('pathological YAML: nesting the parser would recurse into', () => {
  it.each([
    ['a line of 5,000 nested list items', `${'- '.repeat(5_000)}x\n`],
    ['5,000 nested flow sequences', `x: ${'['.repeat(5_000)}${']'.repeat(5_000)}\n`],
    ['5,000 nested flow mappings', `x: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}\n`],
    ['5,000 indented levels', Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')],
  ])('%s is an error at its line, never handed to the parser', (_label, text) => {
    const result = parseYamlSource('c.yaml', text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.message).toBe(`nesting deeper than ${MAX_YAML_DEPTH} levels; the-loop reads no YAML this deep`);
  });

  it('reads ordinary nesting, brackets in quoted scalars and comments, and the depth just at the limit', () => {
    expect(parseYaml('a:\n  b:\n    - c: [1, {d: [2]}]\n').errors).toEqual([]);
    expect(parseYaml(`title: "${'['.repeat(200)}"\nnote: '${'{'.repeat(200)}' # ${'['.repeat(200)}\n`).errors).toEqual([]);
    expect(parseYaml(`x: ${'['.repeat(MAX_YAML_DEPTH - 1)}${']'.repeat(MAX_YAML_DEPTH - 1)}\n`).errors).toEqual([]);
  });

  it('never throws, whatever the nesting', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('- ', '? ', '[', '{', ']', '}', ' ', 'a: ', '\n', '"', "'", '#', 'x'), { maxLength: 3_000 }), (parts) => {
        expect(() => parseYamlSource('c.yaml', parts.join(''))).not.toThrow();
      }),
    );
  });
});
