import { isMap, isScalar, type Pair } from 'yaml';
import type { Diagnostic, Position } from '../diagnostic.js';
import { frontMatterNotMapping, frontMatterNotYaml, frontMatterUnusable } from '../rules/front-matter-invalid.js';
import { pastedTemplateChoices } from '../rules/template-residue.js';
import { lineIndex } from '../yaml/line-index.js';
import { parseYaml } from '../yaml/parse-yaml.js';
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
  return flatFrontMatter(source) ?? frontMatterFromYaml(path, source);
}

/** {@link parseFrontMatter} by the YAML library alone, whatever the block holds. */
export function frontMatterFromYaml(path: string, source: FrontMatterSource): FrontMatterResult {
  const doc = parseYaml(source.yaml);
  const locate = lineIndex(source.yaml);
  const at = (offset: number): Position => {
    const { line, column } = locate(offset);
    return { line: line + source.firstLine - 1, column };
  };
  const diagnostics: Diagnostic[] = [];
  if (doc.errors.length > 0) {
    for (const error of doc.errors) diagnostics.push(frontMatterNotYaml(path, firstLine(error.message), at(error.pos[0])));
    return { frontMatter: undefined, diagnostics };
  }
  if (doc.contents === null) return { frontMatter: { data: {}, positions: {}, position: source.position, yaml: source.yaml, firstLine: source.firstLine }, diagnostics };
  if (!isMap(doc.contents)) {
    diagnostics.push(frontMatterNotMapping(path, at(doc.contents.range?.[0] ?? 0)));
    return { frontMatter: undefined, diagnostics };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
    // An anchor that contains its own alias (`a: &a [*a]`) builds a cycle no report can serialise.
    JSON.stringify(data);
  } catch (error) {
    diagnostics.push(frontMatterUnusable(path, firstLine(error instanceof Error ? error.message : String(error)), source.position));
    return { frontMatter: undefined, diagnostics };
  }
  const positions: Record<string, Position> = {};
  for (const pair of doc.contents.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    const valueNode = pair.value;
    const range = isScalar(valueNode) ? valueNode.range : isScalar(pair.key) ? pair.key.range : undefined;
    if (range) positions[key] = at(range[0]);
    if (isScalar(valueNode)) diagnostics.push(...pastedTemplateChoices(path, key, valueNode.value, valueNode.comment, positions[key]));
  }
  return {
    frontMatter: { data: data as Record<string, unknown>, positions, position: source.position, yaml: source.yaml, firstLine: source.firstLine },
    diagnostics,
  };
}

// A line of the flattest front-matter: a key, a colon, a space, and a value that the YAML core
// schema reads as the string written: a date, or words that start with a letter and hold no
// character that could start a comment, a quote, an indicator or an escape (and are no boolean
// or null).
const FLAT_LINE = /^([A-Za-z][A-Za-z0-9_-]*):( +)([A-Za-z][A-Za-z0-9 _./()+-]*?|\d{4}-\d\d-\d\d) *$/;
const NOT_A_STRING = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

/**
 * Front-matter of nothing but `key: value` lines of plain words, read without the YAML library
 * (which costs more than the rest of a small artifact): the result the library gives, or
 * undefined for any block it must read.
 */
export function flatFrontMatter(source: FrontMatterSource): FrontMatterResult | undefined {
  const { yaml } = source;
  if (yaml === '' || yaml.includes('\r')) return undefined;
  const data: Record<string, string> = {};
  const positions: Record<string, Position> = {};
  let line = source.firstLine;
  for (let from = 0; from <= yaml.length; line += 1) {
    const end = yaml.indexOf('\n', from);
    const match = FLAT_LINE.exec(end === -1 ? yaml.slice(from) : yaml.slice(from, end));
    if (!match) return undefined;
    const [, key = '', space = '', value = ''] = match;
    if (Object.hasOwn(data, key) || NOT_A_STRING.test(key) || NOT_A_STRING.test(value)) return undefined;
    data[key] = value;
    positions[key] = { line, column: key.length + 1 + space.length + 1 };
    if (end === -1) break;
    from = end + 1;
  }
  return { frontMatter: { data, positions, position: source.position, yaml, firstLine: source.firstLine }, diagnostics: [] };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
