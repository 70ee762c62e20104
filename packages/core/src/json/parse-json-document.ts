import * as v from 'valibot';
import { lineIndex } from '../yaml/line-index.js';
import { parseYamlSource, type SourceIssue } from '../yaml/yaml-source.js';

export type JsonDocumentResult<T> = { ok: true; value: T; positionOf: (path: readonly PropertyKey[]) => { line: number; column: number } } | { ok: false; issues: SourceIssue[] };

/**
 * Parse a checked-in JSON file against its schema. Text that is not JSON, or does not match,
 * is an error naming the file, line and column of each problem — never a silent default.
 * `positionOf` maps a path in the value back to its line, for checks made after the schema's.
 */
export function parseJsonDocument<S extends v.GenericSchema>(file: string, text: string, schema: S): JsonDocumentResult<v.InferOutput<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, issues: [{ file, ...jsonErrorPosition(text, error), message: `not valid JSON: ${(error as Error).message}` }] };
  }
  // JSON is YAML, so the YAML source maps schema paths back to lines.
  const source = parseYamlSource(file, text);
  const positionOf = source.ok ? source.source.positionOf : () => ({ line: 1, column: 1 });
  const result = v.safeParse(schema, value, { abortEarly: false });
  if (result.success) return { ok: true, value: result.output, positionOf };
  return {
    ok: false,
    issues: result.issues.map((issue) => {
      const path = (issue.path ?? []).map((p) => p.key as PropertyKey);
      const where = path.length > 0 ? `${path.join('.')}: ` : '';
      const message = issue.kind === 'schema' && issue.expected === 'never' ? `unknown key "${String(path[path.length - 1])}"` : `${where}${issue.message}`;
      return { file, ...positionOf(path), message };
    }),
  };
}

function jsonErrorPosition(text: string, error: unknown): { line: number; column: number } {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!match) return { line: 1, column: 1 };
  return lineIndex(text)(Number(match[1]));
}
