import { parseDocument, type Document } from 'yaml';

/**
 * Parse YAML the way every file the-loop reads is parsed: a key given twice is an error (a
 * later value silently winning would weaken a gate), and errors are plain one-line messages.
 */
export function parseYaml(text: string): Document.Parsed {
  return parseDocument(text, { uniqueKeys: true, prettyErrors: false });
}
