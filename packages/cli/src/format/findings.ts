import { formatLocation, type Diagnostic } from '@the-loop/core';
import type { Colors } from './colors.js';

/** One finding as `file:line:col  ruleId  message` (`(baselined)` after an accepted one), with its fix on the next line. */
export function formatFinding(d: Diagnostic, c: Colors, indent = ''): string {
  const severity = d.baselined === true ? c.dim(d.ruleId) : d.severity === 'error' ? c.red(d.ruleId) : c.yellow(d.ruleId);
  const lines = [`${indent}${c.bold(formatLocation(d))}  ${severity}  ${d.message}${d.baselined === true ? c.dim('  (baselined)') : ''}`];
  if (d.fix) lines.push(`${indent}    ${c.dim(`fix: ${d.fix}`)}`);
  return lines.join('\n');
}

/** Left-aligned columns for a small table. */
export function columns(rows: readonly (readonly string[])[], gap = 2): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleLength(cell) + gap))).join('').trimEnd());
}

// eslint-disable-next-line no-control-regex -- strips the colour codes colors.ts adds
const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}
