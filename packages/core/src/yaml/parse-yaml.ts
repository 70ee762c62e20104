import { parseDocument, YAMLParseError, type Document } from 'yaml';

/**
 * The deepest YAML the-loop reads. The YAML parser recurses once a level: a line of 5,000
 * nested `- ` items exhausts the stack, and where that happens inside the regular-expression
 * engine the process dies outright instead of throwing. No configuration or front-matter comes
 * near this depth.
 */
export const MAX_YAML_DEPTH = 64;

/**
 * What gives a text its value: the yaml library's version and the version of how it is called
 * here. A value kept for a text between runs is only used by the same reader; a test holds the
 * first part to the installed library, and the second is bumped when this file reads the same
 * text differently.
 */
export const YAML_READER = 'yaml 2.9.1, 1';

/**
 * Parse YAML the way every file the-loop reads is parsed: a key given twice is an error (a
 * later value silently winning would weaken a gate), errors are plain one-line messages, and
 * text nested deeper than MAX_YAML_DEPTH is an error at the line where it goes too deep,
 * never handed to the parser.
 */
export function parseYaml(text: string): Document.Parsed {
  const tooDeep = nestingPast(text, MAX_YAML_DEPTH);
  if (tooDeep === undefined) return parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const doc = parseDocument('', { uniqueKeys: true, prettyErrors: false });
  doc.errors.push(new YAMLParseError([tooDeep, tooDeep + 1], 'BAD_INDENT', `nesting deeper than ${MAX_YAML_DEPTH} levels; the-loop reads no YAML this deep`));
  return doc;
}

/**
 * The offset where `text` nests deeper than `limit`, or undefined. An over-estimate, never an
 * under-estimate: each deeper indentation opens a level, so does each `- ` or `? ` that starts a
 * nested entry on the same line, and each `[` or `{` outside a quoted scalar or comment.
 */
function nestingPast(text: string, limit: number): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const body = line.slice(indent);
    if (body !== '' && !body.startsWith('#') && flow === 0) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
    }
    let depth = indents.length;
    let i = indent;
    // Compact nested entries: `- - - x`, `? - x`.
    while ((line[i] === '-' || line[i] === '?') && (line[i + 1] === ' ' || line[i + 1] === undefined)) {
      depth += 1;
      if (depth + flow > limit) return offset + i;
      i += 2;
      while (line[i] === ' ') i += 1;
    }
    for (let quote: string | undefined; i < line.length; i += 1) {
      const ch = line[i];
      if (quote !== undefined) {
        if (ch === quote) quote = undefined;
        continue;
      }
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '#' && (i === 0 || line[i - 1] === ' ')) break;
      else if (ch === '[' || ch === '{') flow += 1;
      else if ((ch === ']' || ch === '}') && flow > 0) flow -= 1;
      if (depth + flow > limit) return offset + i;
    }
    if (depth + flow > limit) return offset + Math.min(i, line.length);
    offset += line.length + 1;
  }
  return undefined;
}
