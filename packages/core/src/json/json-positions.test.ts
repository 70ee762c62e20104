import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlSource } from '../yaml/yaml-source.js';
import { jsonPositions } from './json-positions.js';

type Path = (string | number)[];

// Every path to a value that is neither an object nor an array.
function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [path];
}

describe('jsonPositions', () => {
  it('places every value where the YAML reader places it, in any layout JSON.stringify gives (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, 4), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const yaml = parseYamlSource('f.json', text);
        if (!yaml.ok) return;
        const positionOf = jsonPositions(text);
        for (const path of leaves(value)) expect(positionOf(path), JSON.stringify(path)).toEqual(yaml.source.positionOf(path));
      }),
      { numRuns: 300 },
    );
  });

  it('counts lines as the YAML reader does (CRLF, CR) after a byte-order mark, and columns in UTF-16 units', () => {
    const text = '\uFEFF{\r\n  "a": "\u{1F600}", "b": 1,\r  "c": [true]\n}';
    const positionOf = jsonPositions(text);
    expect(positionOf(['a'])).toEqual({ line: 2, column: 8 });
    expect(positionOf(['b'])).toEqual({ line: 2, column: 19 });
    expect(positionOf(['c', 0])).toEqual({ line: 3, column: 9 });
  });

  it('gives where the deepest part of a path that is there sits, and the top for text that is no JSON', () => {
    const positionOf = jsonPositions('{\n  "findings": [\n    {"ruleId": "x"}\n  ]\n}\n');
    expect(positionOf(['findings', 0, 'file'])).toEqual({ line: 3, column: 5 });
    expect(positionOf(['findings', 7, 'ruleId'])).toEqual({ line: 2, column: 15 });
    expect(jsonPositions('')(['findings'])).toEqual({ line: 1, column: 1 });
  });

  it('reads a repeated key as JSON.parse does, the last one', () => {
    expect(jsonPositions('{"a": 1,\n "a": 2}')(['a'])).toEqual({ line: 2, column: 7 });
  });
});
