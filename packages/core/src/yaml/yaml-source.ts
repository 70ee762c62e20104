import { isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import type { Position } from '../diagnostic.js';
import { lineIndex } from './line-index.js';
import { parseYaml } from './parse-yaml.js';

/** A problem in a configuration or graph file, with the place it was found. */
export interface SourceIssue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A parsed YAML file that can map a value path back to its line and column. */
export interface YamlSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly value: unknown;
  /** Where the value at `path` sits; for a key that should not be there, where the key sits. */
  positionOf(path: readonly PropertyKey[]): Position;
}

export type YamlSourceResult = { ok: true; source: YamlSource } | { ok: false; issues: SourceIssue[] };

/**
 * The value an earlier parse of the very same text found, kept by a caller between runs. With
 * it, the text is parsed again only when a position is asked for (to place a problem).
 */
export interface KnownYamlValue {
  readonly value: unknown;
}

/** Parse YAML text, collecting every syntax error with its position. Never throws. */
export function parseYamlSource(file: string, text: string, known?: KnownYamlValue): YamlSourceResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (known !== undefined) {
    let parsed: Document.Parsed | undefined;
    const doc = (): Document.Parsed => (parsed ??= parseYaml(body));
    let at: ((offset: number) => Position) | undefined;
    const positionOf = (path: readonly PropertyKey[]): Position => positionIn(doc(), (at ??= lineIndex(body)), path);
    return { ok: true, source: { file, get doc() { return doc(); }, value: known.value, positionOf } };
  }
  const doc = parseYaml(body);
  const at = lineIndex(body);
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => ({ file, ...at(error.pos[0]), message: error.message.split('\n', 1)[0] ?? error.message })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, issues: [{ file, line: 1, column: 1, message: error instanceof Error ? error.message : String(error) }] };
  }
  return { ok: true, source: { file, doc, value, positionOf: (path) => positionIn(doc, at, path) } };
}

function positionIn(doc: Document.Parsed, at: (offset: number) => Position, path: readonly PropertyKey[]): Position {
  let node: unknown = doc.contents;
  let best: Position = { line: 1, column: 1 };
  for (const [depth, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) return best;
      const keyNode = pair.key as YamlNode;
      if (keyNode.range) best = at(keyNode.range[0]);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      // A key missing from a list entry written as a block mapping is reported where the entry
      // starts, not where the list does.
      const entry = (node as YamlNode | null)?.range;
      if (entry && isMap(node) && !node.flow && depth < path.length - 1) best = at(entry[0]);
    } else {
      return best;
    }
    const range = (node as YamlNode | null)?.range;
    if (range && !isMap(node)) best = at(range[0]);
  }
  return best;
}
