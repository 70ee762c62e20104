import { isMap } from 'yaml';
import { findSection, sectionSpan } from '../artifact/find-section.js';
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

/** The execution log's table of what each run's harness calls used (written by `the-loop run`). */
export const RUN_USAGE = 'Run usage';

/** The execution log's section of what the next work item should do differently, written once the work is done. */
export const LEARNINGS = 'Learnings';

/** Append a row to the log's "Phase transitions" table, creating the section or table when absent. */
export function appendTransitionRow(text: string, row: TransitionRow): string {
  return appendTableRow(text, PHASE_TRANSITIONS, [
    ['When', row.at],
    ['From', row.from],
    ['To', row.to],
    ['Outcome', row.outcome],
    ['Note', row.note],
  ]);
}

// Column names that mean the same thing in tables people wrote by hand.
const COLUMN_ALIASES: Readonly<Record<string, string>> = { round: 'cycle', result: 'outcome', kind: 'type' };

/**
 * Append a row to the first table under the section titled `title`, creating the section or
 * the table when absent. `row` is a list of `[column, value]`; a new table gets those columns,
 * an existing one gets each value under the column of the same name (`—` where it has none).
 */
export function appendTableRow(text: string, title: string, row: ReadonlyArray<readonly [string, string]>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const artifact = parseArtifact('execution-log.md', text);
  const section = findSection(artifact, title);
  const render = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const table = [render(row.map(([column]) => column)), render(row.map(() => '---')), render(row.map(([, value]) => value))];
  if (!section) return appendSection(text, title, table);
  // The parsed document, not a line scan, says where the section and its table end: a `#`
  // line inside a code block is not a heading.
  const { start, end } = sectionSpan(artifact, section);
  const existing = artifact.tables.find((t) => t.position.line > start && t.position.line < end && t.position.column <= 4);
  if (existing) {
    const byName = new Map(row.map(([column, value]) => [columnKey(column), value]));
    const last = existing.rows[existing.rows.length - 1]?.position.line ?? existing.position.line + 1;
    lines.splice(last, 0, render(existing.header.map((column) => byName.get(columnKey(column)) ?? '')));
  } else lines.splice(start, 0, '', ...table, ...(lines[start]?.trim() ? [''] : []));
  return lines.join(eol);
}

/** Append lines (a list entry, a paragraph) at the end of the section titled `title`, creating it when absent. */
export function appendToSection(text: string, title: string, added: readonly string[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const artifact = parseArtifact('execution-log.md', text);
  const section = findSection(artifact, title);
  if (!section) return appendSection(text, title, added);
  const lines = text.split(/\r?\n/);
  const { start, end } = sectionSpan(artifact, section);
  // After the section's last line that holds anything (0-based index `at`), so the blank lines
  // before the next heading stay where they are.
  let at = Math.min(end - 1, lines.length);
  while (at > start && (lines[at - 1] ?? '').trim() === '') at -= 1;
  const previous = at === start ? '' : (lines[at - 1] ?? '');
  const continuesList = /^\s*[-*+] /.test(previous) && /^\s*[-*+] /.test(added[0] ?? '');
  const before = continuesList ? [] : [''];
  const after = at < lines.length && (lines[at] ?? '').trim() !== '' ? [''] : [];
  lines.splice(at, 0, ...before, ...added, ...after);
  return lines.join(eol);
}

function appendSection(text: string, title: string, body: readonly string[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const trimmed = text.replace(/\s+$/, '');
  return `${trimmed}${trimmed ? `${eol}${eol}` : ''}## ${title}${eol}${eol}${body.join(eol)}${eol}`;
}

function columnKey(column: string): string {
  const key = column.trim().toLowerCase();
  return COLUMN_ALIASES[key] ?? key;
}

function cell(value: string): string {
  return value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim() || '—';
}
