import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import { parseYamlSource, type SourceIssue } from '../yaml/yaml-source.js';
import { parseJson } from './parse-json.js';

export type JsonDocumentResult<T> = { ok: true; value: T; positionOf: (path: readonly PropertyKey[]) => { line: number; column: number } } | { ok: false; issues: SourceIssue[] };

/**
 * Read a JSON file the-loop keeps (graph state, a review round, a local record) against its
 * schema. Text that is not JSON, or does not match, is an error naming the file, line and
 * column of each problem — never a silent default. `positionOf` maps a path in the value back
 * to its line, for checks made after the schema's.
 */
export function parseJsonDocument<S extends v.GenericSchema>(file: string, text: string, schema: S): JsonDocumentResult<v.InferOutput<S>> {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, issues: [{ file, ...json.position, message: `not valid JSON: ${json.error}` }] };
  // JSON is YAML, so the YAML source maps paths back to lines. It is parsed once, and only when
  // a problem is to be placed: a large valid file is never parsed twice.
  let source: ReturnType<typeof parseYamlSource> | undefined;
  const positionOf = (path: readonly PropertyKey[]) => {
    source ??= parseYamlSource(file, text);
    return source.ok ? source.source.positionOf(path) : { line: 1, column: 1 };
  };
  const result = v.safeParse(schema, json.value, { abortEarly: false });
  if (!result.success) return { ok: false, issues: schemaIssues(schema, result.issues, atSource({ file, positionOf })) };
  return { ok: true, value: result.output, positionOf };
}
