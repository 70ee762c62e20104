import { isMap } from 'yaml';
import { findSection } from '../artifact/find-section.js';
import { frontMatterBlock } from '../artifact/markdown-tree.js';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { parseYaml } from '../yaml/parse-yaml.js';
import type { TransitionRow } from '../graph-state/effects.js';

export type EditResult = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Set one front-matter key, keeping every other key, comment and the body as they are.
 * A file with no front-matter gets one; a front-matter that does not parse is left alone.
 */
export function setFrontMatterValue(text: string, key: string, value: string): EditResult {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const block = frontMatterBlock(body);
  if (!block) return { ok: true, text: `---\n${key}: ${value}\n---\n${text}` };
  const eol = body[body.indexOf('\n') - 1] === '\r' ? '\r\n' : '\n';
  const doc = parseYaml(block.yaml);
  if (doc.errors.length > 0) return { ok: false, reason: `its front-matter does not parse: ${doc.errors[0]!.message.split('\n', 1)[0]}` };
  // A list is an object to typeof too, and setting a key on it throws.
  if (doc.contents !== null && !isMap(doc.contents)) return { ok: false, reason: 'its front-matter is not a mapping' };
  const current = doc.get(key, true);
  // Keep the scalar node, so a trailing comment stays where it was; only its value changes.
  if (current && typeof current === 'object' && 'value' in current) (current as { value: unknown }).value = value;
  else doc.set(key, value);
  let yaml = doc.toString({ lineWidth: 0 });
  if (eol === '\r\n') yaml = yaml.replace(/\r?\n/g, '\r\n');
  return { ok: true, text: `${bom}---${eol}${yaml}---${body.slice(block.end)}` };
}

/** The execution log's table of lifecycle transitions. */
export const PHASE_TRANSITIONS = 'Phase transitions';
const HEADER = ['When', 'From', 'To', 'Outcome', 'Note'];

/** Append a row to the log's "Phase transitions" table, creating the section or table when absent. */
export function appendTransitionRow(text: string, row: TransitionRow): string {
  const cells = [row.at, row.from, row.to, row.outcome, row.note].map(cell);
  const line = `| ${cells.join(' | ')} |`;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const artifact = parseArtifact('execution-log.md', text);
  const section = findSection(artifact, PHASE_TRANSITIONS);
  const table = [`| ${HEADER.join(' | ')} |`, `| ${HEADER.map(() => '---').join(' | ')} |`, line];
  if (!section) {
    const trimmed = text.replace(/\s+$/, '');
    return `${trimmed}${trimmed ? `${eol}${eol}` : ''}## ${PHASE_TRANSITIONS}${eol}${eol}${table.join(eol)}${eol}`;
  }
  // The parsed document, not a line scan, says where the section and its table end: a `#`
  // line inside a code block is not a heading.
  const start = section.position.line; // 1-based heading line
  const next = artifact.sections.find((s) => s.position.line > start && s.depth <= section.depth);
  const end = next ? next.position.line : Number.POSITIVE_INFINITY;
  const existing = artifact.tables.find((t) => t.position.line > start && t.position.line < end && t.position.column <= 4);
  if (existing) {
    const last = existing.rows[existing.rows.length - 1]?.position.line ?? existing.position.line + 1;
    lines.splice(last, 0, line);
  } else lines.splice(start, 0, '', ...table, ...(lines[start]?.trim() ? [''] : []));
  return lines.join(eol);
}

function cell(value: string): string {
  return value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim() || '—';
}
