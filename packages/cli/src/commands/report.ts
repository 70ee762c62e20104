import type { ReportItem } from '@the-loop/core';
import { withCache } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { colorsFor, type Colors } from '../format/colors.js';
import { columns, formatFinding } from '../format/findings.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleDir } from '../bundle-dir.js';
import { evaluateForReport, IN_MEMORY_ITEMS, type SpooledReport } from '../gate/evaluate-many.js';
import { specRootWorkItems } from '../workspace/read-work-item.js';
import { openRepo } from '../workspace/repo.js';
import { withScratchDir } from '../workspace/scratch.js';
import { oneOf, parseOptions, type Command } from './command.js';

const USAGE = `Usage: the-loop report [--repo DIR] [--format table|json|markdown] [--allow-empty] [--no-cache]

The drift report: every work item under the spec root, what it holds and where it stands.
  --format table|json|markdown   table for people (default), json for tools, markdown for a PR comment
  --allow-empty                  a spec root with no work items is not an error
  --no-cache                     parse and evaluate everything afresh instead of reusing .the-loop/local/cache (off in CI anyway)
Exit codes: 0 every work item passes · 1 some work item is unmet · 2 usage/configuration error or no work items`;

const FORMATS = ['table', 'json', 'markdown'] as const;
// Enough findings per item for a reader to see the shape; `check <id>` lists them all.
const FINDINGS_PER_ITEM = 8;

export const command: Command = {
  summary: 'drift report over every work item',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(
      args,
      { repo: { type: 'string' }, format: { type: 'string' }, 'allow-empty': { type: 'boolean' }, 'no-cache': { type: 'boolean' } },
      USAGE,
    );
    if (positionals.length > 0) throw new UsageError(`report takes no positional arguments\n${USAGE}`);
    const format = oneOf(values.format, FORMATS, 'table', '--format');
    const repo = withCache(await openRepo(env.cwd, values.repo), env.env, values['no-cache'], true);
    const ids = await specRootWorkItems(repo, env.stderr, values['allow-empty'] === true);
    const run = async (spool: string | undefined): Promise<number> => {
      const report = await evaluateForReport(repo, ids, workerEntry(), spool);
      const renderer = format === 'json' ? jsonReport : format === 'markdown' ? markdownReport : tableReport(colorsFor(env.stdout, env.env));
      await writeReport(env.stdout, report, renderer);
      return report.totals.ok ? 0 : 1;
    };
    // A small report keeps its items in memory; a larger one spools them to a scratch folder.
    return ids.length > IN_MEMORY_ITEMS ? withScratchDir('report', run) : run(undefined);
  },
};

/** A format, as the text before the items, each item's text, and the text after them. */
interface Renderer {
  head(report: SpooledReport): string;
  item(item: ReportItem, index: number, count: number): string;
  tail(report: SpooledReport): string;
}

// The report is written an item at a time, read back from the spool when it has one, so a report
// over any number of work items never holds them all, in memory or in the stream's buffer: a slow
// reader (a pipe) is waited for.
async function writeReport(out: NodeJS.WritableStream, report: SpooledReport, renderer: Renderer): Promise<void> {
  const write = async (text: string): Promise<void> => {
    if (text !== '' && !out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  };
  await write(renderer.head(report));
  let index = 0;
  for (const item of report.items()) {
    await write(renderer.item(item, index, report.totals.workItems));
    index += 1;
  }
  await write(renderer.tail(report));
}

// The same text as JSON.stringify(report, null, 2).
const jsonReport: Renderer = {
  head({ totals }) {
    const opening = JSON.stringify({ ...totals, items: [] }, null, 2);
    return totals.workItems === 0 ? opening : `${opening.slice(0, opening.lastIndexOf('[]'))}[\n`;
  },
  item(item, index, count) {
    return `${JSON.stringify(item, null, 2).replace(/^/gm, '    ')}${index < count - 1 ? ',' : ''}\n`;
  },
  tail({ totals }) {
    return totals.workItems === 0 ? '\n' : '  ]\n}\n';
  },
};

// The bundled worker sits beside the bundle; from source, report runs on one thread.
function workerEntry(): URL | undefined {
  const dir = bundleDir();
  const file = dir && join(dir, 'report-worker.cjs');
  return file && existsSync(file) ? pathToFileURL(file) : undefined;
}

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
