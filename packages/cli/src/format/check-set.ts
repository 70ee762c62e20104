import type { Diagnostic, WorkItemResult } from '@the-loop/core';
import type { FailOn } from '@the-loop/hooks';
import { colorsFor, type Colors } from './colors.js';
import { columns, formatFinding } from './findings.js';
import { resultAnnotations } from './github.js';
import { sarifLines } from './sarif.js';

/**
 * How `check` writes the results of a set of work items: JSON entries, tables (coloured or not),
 * GitHub annotations or SARIF's findings. Crosses threads, as a report's style does: each thread
 * renders the results it evaluates.
 */
export interface CheckStyle {
  readonly format: 'json' | 'table' | 'github' | 'sarif';
  readonly color: boolean;
}

/**
 * A result's text at its place in the set's output (`index` of `count`): an entry of the JSON
 * document's `results`, indented where it sits and followed by its comma, its table after the
 * blank line that parts it from the one before, its annotations, or its findings for the SARIF
 * document, numbered where the document is written (both at `failOn`'s levels).
 */
export function checkEntry(style: CheckStyle, result: WorkItemResult, index: number, count: number, failOn: FailOn): string {
  if (style.format === 'json') return `    ${JSON.stringify(result, null, 2).replaceAll('\n', '\n    ')}${index < count - 1 ? ',' : ''}\n`;
  if (style.format === 'github') return resultAnnotations(result, failOn);
  if (style.format === 'sarif') return sarifLines(result, failOn);
  return `${index > 0 ? '\n' : ''}${renderCheck(result, colorsFor({ isTTY: style.color }, {}))}`;
}

/** One work item's result as a table: where it stands, each node's outcome, and its findings. */
export function renderCheck(result: WorkItemResult, c: Colors): string {
  const baselined = result.findings.filter((d) => d.baselined === true).length;
  const headline = !result.ok
    ? `${c.bold(result.workItem)}: current node ${c.bold(result.currentNode ?? '—')}`
    : baselined === 0
      ? c.green(`${result.workItem}: every gate passes`)
      : `${c.green(`${result.workItem}: nothing new is unmet`)} (${baselined} baselined finding${baselined === 1 ? '' : 's'}; current node ${c.bold(result.currentNode ?? '—')})`;
  const rows = result.nodes.map((node) => {
    const outcome = node.outcome ?? '';
    const paint = outcome === 'pass' || outcome === 'skip' ? c.green : outcome === 'wait' ? c.yellow : outcome === 'block' ? c.red : c.dim;
    return [`  ${node.node}`, node.status, paint(outcome), node.findings.length > 0 ? `${node.findings.length} finding${node.findings.length === 1 ? '' : 's'}` : ''];
  });
  const lines = [headline, '', ...columns(rows)];
  if (result.findings.length > 0) lines.push('', ...result.findings.map((d) => formatFinding(d, c)));
  return `${lines.join('\n')}\n`;
}

/** What the baseline accepted since the compared commit, under its heading; nothing when it grew by nothing. */
export function grownText(grown: readonly Diagnostic[], c: Colors): string {
  if (grown.length === 0) return '';
  return `\n${c.bold('The baseline grew')}: ${grown.length} entr${grown.length === 1 ? 'y' : 'ies'} accepted since the compared commit\n${grown.map((d) => formatFinding(d, c)).join('\n')}\n`;
}
