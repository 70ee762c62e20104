import type * as v from 'valibot';
import type { SourceIssue, YamlSource } from './yaml-source.js';

/** Places a problem found at a value path (from the file's root) in its file. */
export type IssueAt = (path: readonly PropertyKey[], message: string) => SourceIssue;

export interface SchemaIssueOptions {
  /** Where the checked value sits in its file (`['reviews']`); prefixed to every path. */
  readonly base?: readonly PropertyKey[];
  /** Names a path for people; the default is `reviews.critics[1].timeoutSeconds`. */
  readonly describe?: (path: readonly PropertyKey[]) => string;
  /** A better hint than the closest known key for an unknown key at `path` (its own key last). */
  readonly hint?: (key: string, path: readonly PropertyKey[]) => string | undefined;
}

/** Where a key sits in a parsed YAML file, for `schemaIssues`. */
export function atSource(source: Pick<YamlSource, 'file' | 'positionOf'>): IssueAt {
  return (path, message) => ({ file: source.file, ...source.positionOf(path), message });
}

/**
 * The one way a schema's issues become positioned problems. Every problem is
 * `<where>: <what>`, where is left out at the file's root:
 * `unknown key "sectons" (did you mean "sections"?)` under the object that does not know it,
 * `missing key "roles"` under the object that lacks it, and the schema's own message at the
 * value it is about.
 */
export function schemaIssues(schema: v.GenericSchema, issues: readonly v.BaseIssue<unknown>[], at: IssueAt, options: SchemaIssueOptions = {}): SourceIssue[] {
  const base = options.base ?? [];
  const describe = options.describe ?? dottedPath;
  const where = (path: readonly PropertyKey[]) => {
    const named = path.length > 0 ? describe(path) : '';
    return named === '' ? '' : `${named}: `;
  };
  const reported = new Set<string>();
  return issues.flatMap((issue) => {
    const own = (issue.path ?? []).map((item) => item.key as PropertyKey);
    const path = [...base, ...own];
    const last = String(path[path.length - 1]);
    const owner = path.slice(0, -1);
    if (issue.kind === 'schema' && issue.expected === 'never') {
      const known = keysAt(schema, own.slice(0, -1));
      return unknownKeys(issue, last, known).flatMap((key) => {
        const keyPath = [...owner, key];
        const id = JSON.stringify(keyPath);
        if (reported.has(id)) return [];
        reported.add(id);
        const suggestion = options.hint?.(key, keyPath) ?? didYouMean(key, known);
        return [at(keyPath, `${where(owner)}unknown key "${key}"${suggestion}`)];
      });
    }
    if (issue.kind === 'schema' && issue.received === 'undefined' && issue.expected === `"${last}"`) return [at(path, `${where(owner)}missing key "${last}"`)];
    return [at(path, `${where(path)}${issue.message}`)];
  });
}

// valibot names only the first unknown key of an object; every other one is as wrong, and
// reported in the same round. The object is the input the issue's last path item was found in.
function unknownKeys(issue: v.BaseIssue<unknown>, first: string, known: readonly string[]): string[] {
  const object = issue.path?.[issue.path.length - 1]?.input;
  if (known.length === 0 || known.includes(first) || object === null || typeof object !== 'object' || Array.isArray(object)) return [first];
  return Object.keys(object).filter((key) => !known.includes(key));
}

/** ` (did you mean "x"?)` for the known word closest to `word`, when one is close; else nothing. */
export function didYouMean(word: string, known: readonly string[]): string {
  const best = closest(word, known);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

/** The known word within two edits of `word` (case aside), nearest first. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `reviews.critics[1].timeoutSeconds`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

type SchemaNode = { readonly entries?: Record<string, unknown>; readonly item?: unknown; readonly value?: unknown; readonly wrapped?: unknown; readonly type?: string };

// The keys an object schema knows at `path`, walking through optional, pipe, array and record.
function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  let nodes: SchemaNode[] = [schema as SchemaNode];
  for (const key of path) {
    nodes = nodes.flatMap(unwrap).flatMap((node) => {
      if (node.entries && typeof key === 'string') return node.entries[key] === undefined ? [] : [node.entries[key] as SchemaNode];
      if (node.item !== undefined && typeof key === 'number') return [node.item as SchemaNode];
      if (node.type === 'record' && node.value !== undefined) return [node.value as SchemaNode];
      return [];
    });
  }
  return [...new Set(nodes.flatMap(unwrap).flatMap((node) => Object.keys(node.entries ?? {})))];
}

function unwrap(node: SchemaNode | undefined): SchemaNode[] {
  if (node === undefined) return [];
  return node.wrapped === undefined ? [node] : unwrap(node.wrapped as SchemaNode);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}
