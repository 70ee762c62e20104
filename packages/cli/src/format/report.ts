import type { ReportItem, ReportTotals } from '@the-loop/core';
import { colorsFor, type Colors } from './colors.js';
import { columns, formatFinding } from './findings.js';

export const REPORT_FORMATS = ['table', 'json', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** How the report is written: its format, and for a table whether it is coloured. Crosses threads: each renders the items it evaluates. */
export interface ReportStyle {
  readonly format: ReportFormat;
  readonly color: boolean;
}

/** What a report's text is made of besides its items: the totals, and how many items are complete. */
export interface ReportHead {
  readonly totals: ReportTotals;
  readonly complete: number;
}

/** A format, as the text before the items, each item's text, and the text after them. */
export interface Renderer {
  head(report: ReportHead): string;
  item(item: ReportItem, index: number, count: number): string;
  tail(report: ReportHead): string;
}

// Enough findings per item for a reader to see the shape; `check <id>` lists them all.
const FINDINGS_PER_ITEM = 8;

/** The renderer of a style. */
export function rendererOf({ format, color }: ReportStyle): Renderer {
  if (format === 'json') return jsonReport;
  if (format === 'markdown') return markdownReport;
  return tableReport(colorsFor({ isTTY: color }, {}));
}

// The same text as JSON.stringify(report, null, 2).
const NESTED = '[\n  [\n';
const NESTED_END = '\n  ]\n]';
const jsonReport: Renderer = {
  head({ totals }) {
    const opening = JSON.stringify({ ...totals, items: [] }, null, 2);
    return totals.workItems === 0 ? opening : `${opening.slice(0, opening.lastIndexOf('[]'))}[\n`;
  },
  item(item, index, count) {
    // Indented at its depth in the report (two arrays deep, as in `items`) by JSON.stringify itself,
    // rather than by indenting its text again: the brackets around it are cut off.
    const nested = JSON.stringify([[item]], null, 2);
    return `${nested.slice(NESTED.length, -NESTED_END.length)}${index < count - 1 ? ',' : ''}\n`;
  },
  tail({ totals }) {
    return totals.workItems === 0 ? '\n' : '  ]\n}\n';
  },
};

function tableReport(c: Colors): Renderer {
  return {
    head({ totals, complete }) {
      const out: string[] = [];
      out.push(c.bold(`Drift report for ${totals.specRoot}: ${totals.workItems} work items, ${complete} complete`), '');
      out.push(c.bold('Artifacts'));
      out.push(
        ...columns([
          ['  file', 'present', 'by status'],
          ...Object.entries(totals.artifacts).map(([name, count]) => [`  ${name}`, `${count.present} of ${totals.workItems}`, statusList(count.status)]),
        ]),
      );
      out.push('', c.bold('Execution-log phases'), `  ${statusList(totals.executionLogPhases) || 'none'}`);
      out.push('', c.bold('Current node (derived from the artifacts)'), `  ${statusList(totals.currentNodes)}`);
      out.push('', c.bold('Findings by rule'), `  ${statusList(totals.findingsByRule) || 'none'}`);
      return out.join('\n');
    },
    item(item) {
      if (item.findings.length === 0) return '';
      const out = [`\n\n${c.bold(item.workItem)}  ${item.ok ? c.green('ok') : c.red('unmet')}  at ${item.currentNode ?? 'done'}  (${item.findings.length} finding${item.findings.length === 1 ? '' : 's'})`];
      out.push(...item.findings.slice(0, FINDINGS_PER_ITEM).map((d) => `\n${formatFinding(d, c, '  ').split('\n')[0] as string}`));
      if (item.findings.length > FINDINGS_PER_ITEM) out.push(`\n${c.dim(`  … ${item.findings.length - FINDINGS_PER_ITEM} more: the-loop check ${item.workItem}`)}`);
      return out.join('');
    },
    tail: () => '\n',
  };
}

const markdownReport: Renderer = {
  head({ totals, complete }) {
    const out = [`## the-loop drift report: ${totals.specRoot}`, '', `${totals.workItems} work items, ${complete} complete.`, ''];
    out.push('| artifact | present | by status |', '|---|---|---|');
    for (const [name, count] of Object.entries(totals.artifacts)) out.push(`| \`${name}\` | ${count.present} of ${totals.workItems} | ${statusList(count.status)} |`);
    out.push('', `**Execution-log phases:** ${statusList(totals.executionLogPhases) || 'none'}`, '');
    out.push('| work item | current node | findings |', '|---|---|---|');
    return `${out.join('\n')}\n`;
  },
  item: (item) => `| ${item.workItem} | ${item.currentNode ?? 'done'} | ${item.findings.length} |\n`,
  tail: () => '',
};

function statusList(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');
}
