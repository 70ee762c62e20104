import { parseDocument, isMap, isScalar, type Pair } from 'yaml';
import { diagnostic, type Diagnostic, type Position } from '../diagnostic.js';
import { lineIndex } from '../yaml/line-index.js';
import type { FrontMatter } from './types.js';

/** The raw YAML of a front-matter block and the document line its first YAML line is on. */
export interface FrontMatterSource {
  readonly yaml: string;
  readonly firstLine: number;
  readonly position: Position;
}

export interface FrontMatterResult {
  readonly frontMatter: FrontMatter | undefined;
  readonly diagnostics: Diagnostic[];
}

/**
 * Parse front-matter YAML. Malformed YAML or a non-mapping is a `front-matter-invalid`
 * diagnostic and the front-matter is then treated as absent. A trailing comment that
 * enumerates alternatives (`phase: needs-review # not-started | brainstorming | …`) is the
 * template's own hint pasted through untouched: `template-residue`.
 */
export function parseFrontMatter(path: string, source: FrontMatterSource): FrontMatterResult {
  const doc = parseDocument(source.yaml, { prettyErrors: false, uniqueKeys: true });
  const locate = lineIndex(source.yaml);
  const at = (offset: number): Position => {
    const { line, column } = locate(offset);
    return { line: line + source.firstLine - 1, column };
  };
  const diagnostics: Diagnostic[] = [];
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      diagnostics.push(
        diagnostic({
          ruleId: 'front-matter-invalid',
          message: `Front-matter is not valid YAML: ${firstLine(error.message)}`,
          file: path,
          position: at(error.pos[0]),
          fix: 'Correct the YAML between the leading `---` lines.',
        }),
      );
    }
    return { frontMatter: undefined, diagnostics };
  }
  if (doc.contents === null) return { frontMatter: { data: {}, positions: {}, position: source.position }, diagnostics };
  if (!isMap(doc.contents)) {
    diagnostics.push(
      diagnostic({
        ruleId: 'front-matter-invalid',
        message: 'Front-matter must be a mapping of keys to values.',
        file: path,
        position: at(doc.contents.range?.[0] ?? 0),
        expected: 'a YAML mapping (key: value lines)',
        fix: 'Write the front-matter as `key: value` lines.',
      }),
    );
    return { frontMatter: undefined, diagnostics };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
    // An anchor that contains its own alias (`a: &a [*a]`) builds a cycle no report can serialise.
    JSON.stringify(data);
  } catch (error) {
    diagnostics.push(
      diagnostic({
        ruleId: 'front-matter-invalid',
        message: `Front-matter cannot be read: ${firstLine(error instanceof Error ? error.message : String(error))}`,
        file: path,
        position: source.position,
      }),
    );
    return { frontMatter: undefined, diagnostics };
  }
  const positions: Record<string, Position> = {};
  for (const pair of doc.contents.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    const valueNode = pair.value;
    const range = isScalar(valueNode) ? valueNode.range : isScalar(pair.key) ? pair.key.range : undefined;
    if (range) positions[key] = at(range[0]);
    if (isScalar(valueNode) && typeof valueNode.comment === 'string' && valueNode.comment.includes('|')) {
      diagnostics.push(
        diagnostic({
          ruleId: 'template-residue',
          message: `\`${key}:\` still carries the template's list of choices as a comment ("#${valueNode.comment}").`,
          file: path,
          position: positions[key],
          actual: `${key}: ${String(valueNode.value)}  #${valueNode.comment}`,
          expected: `${key}: ${String(valueNode.value)}`,
          fix: `Set \`${key}\` by a real transition and delete the pasted template comment.`,
        }),
      );
    }
  }
  return {
    frontMatter: { data: data as Record<string, unknown>, positions, position: source.position },
    diagnostics,
  };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
