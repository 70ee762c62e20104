import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { Position } from '../diagnostic.js';
import { lineIndex } from '../yaml/line-index.js';

/**
 * Where the value at a path of a JSON text sits (1-based line and column), for JSON too large for
 * the YAML reader's positions: a baseline of tens of thousands of entries took that reader 3.5 s
 * and 800 MB. The text is tokenized once into offsets; a path that is not there gives where the
 * deepest part of it that is there sits.
 */
export function jsonPositions(text: string): (path: readonly (string | number)[]) => Position {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const tree = parseTree(body);
  const at = lineIndex(body);
  return (path) => {
    if (!tree) return { line: 1, column: 1 };
    for (let depth = path.length; depth > 0; depth -= 1) {
      const node = findNodeAtLocation(tree, [...path.slice(0, depth)]);
      if (node) return at(node.offset);
    }
    return at(tree.offset);
  };
}
