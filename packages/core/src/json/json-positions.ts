import { parse, type AnyNode } from '@humanwhocodes/momoa';
import type { Position } from '../diagnostic.js';
import { lineIndex } from '../yaml/line-index.js';

/**
 * Where the value at a path of a JSON text sits (1-based line and column), for JSON too large for
 * the YAML reader's positions: a baseline of tens of thousands of entries took that reader 3.5 s
 * and 800 MB. A path that is not there gives where the deepest part of it that is there sits; text
 * that is not JSON, the top.
 */
export function jsonPositions(text: string): (path: readonly (string | number)[]) => Position {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const at = lineIndex(body);
  let root: AnyNode | undefined;
  try {
    root = parse(body).body;
  } catch {
    root = undefined;
  }
  return (path) => {
    if (!root) return { line: 1, column: 1 };
    let node: AnyNode = root;
    for (const segment of path) {
      const next = childOf(node, segment);
      if (!next) break;
      node = next;
    }
    // Counted as every other position of the-loop's is (lineIndex), not as the tokenizer counts.
    return at(node.loc.start.offset);
  };
}

// An array's element or, as JSON.parse reads a repeated key, an object's last member of that name.
function childOf(node: AnyNode, segment: string | number): AnyNode | undefined {
  if (node.type === 'Array') return typeof segment === 'number' ? node.elements[segment]?.value : undefined;
  if (node.type !== 'Object') return undefined;
  const name = String(segment);
  for (let index = node.members.length - 1; index >= 0; index -= 1) {
    const member = node.members[index];
    if (!member) continue;
    // JSON's names are strings; JSON5's may be identifiers, which this never reads.
    if ((member.name.type === 'String' ? member.name.value : member.name.name) === name) return member.value;
  }
  return undefined;
}
