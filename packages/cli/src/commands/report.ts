import { buildReport, type Report } from '@the-loop/core';
import { withCache } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { colorsFor, type Colors } from '../format/colors.js';
import { columns, formatFinding } from '../format/findings.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleDir } from '../bundle-dir.js';
import { evaluateMany } from '../gate/evaluate-many.js';
import { artifactNames, specRootWorkItems } from '../workspace/read-work-item.js';
import { openRepo } from '../workspace/repo.js';
import { oneOf, parseOptions, type Command } from './command.js';

const USAGE = `Usage: the-loop report [--repo DIR] [--format table|json|markdown] [--allow-empty] [--no-cache]

The drift report: every work item under the spec root, what it holds and where it stands.
  --format table|json|markdown   table for people (default), json for tools, markdown for a PR comment
  --allow-empty                  a spec root with no work items is not an error
  --no-cache                     parse every artifact afresh instead of reusing .the-loop/local/cache (off in CI anyway)
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
    const repo = withCache(await openRepo(env.cwd, values.repo), env.env, values['no-cache']);
    const ids = await specRootWorkItems(repo, env.stderr, values['allow-empty'] === true);
    const results = await evaluateMany(repo, ids, workerEntry());
    const report = buildReport(repo.config.specDir, artifactNames(repo.config), results);
    if (format === 'json') await writeReportJson(env.stdout, report);
    else if (format === 'markdown') env.stdout.write(renderMarkdown(report));
    else env.stdout.write(renderTable(report, colorsFor(env.stdout, env.env)));
    return report.ok ? 0 : 1;
  },
};

// The same text as JSON.stringify(report, null, 2), written an item at a time so a report over
// thousands of work items never holds the whole document in one string, nor in the stream's
// buffer: a slow reader (a pipe) is waited for.
async function writeReportJson(out: NodeJS.WritableStream, report: Report): Promise<void> {
  const { items, ...head } = report;
  const opening = JSON.stringify({ ...head, items: [] }, null, 2);
  if (items.length === 0) {
    out.write(`${opening}\n`);
    return;
  }
  out.write(`${opening.slice(0, opening.lastIndexOf('[]'))}[\n`);
  for (const [index, item] of items.entries()) {
    const text = JSON.stringify(item, null, 2).replace(/^/gm, '    ');
    if (!out.write(`${text}${index < items.length - 1 ? ',' : ''}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  out.write('  ]\n}\n');
}

// The bundled worker sits beside the bundle; from source, report runs on one thread.
function workerEntry(): URL | undefined {
  const dir = bundleDir();
  const file = dir && join(dir, 'report-worker.cjs');
  return file && existsSync(file) ? pathToFileURL(file) : undefined;
}

function renderTable(report: Report, c: Colors): string {
  const out: string[] = [];
  const complete = report.items.filter((i) => i.ok).length;
  out.push(c.bold(`Drift report for ${report.specRoot}: ${report.workItems} work items, ${complete} complete`), '');
  out.push(c.bold('Artifacts'));
  out.push(
    ...columns([
      ['  file', 'present', 'by status'],
      ...Object.entries(report.artifacts).map(([name, count]) => [`  ${name}`, `${count.present} of ${report.workItems}`, statusList(count.status)]),
    ]),
  );
  out.push('', c.bold('Execution-log phases'), `  ${statusList(report.executionLogPhases) || 'none'}`);
  out.push('', c.bold('Current node (derived from the artifacts)'), `  ${statusList(report.currentNodes)}`);
  out.push('', c.bold('Findings by rule'), `  ${statusList(report.findingsByRule) || 'none'}`);
  for (const item of report.items) {
    if (item.findings.length === 0) continue;
    out.push('', `${c.bold(item.workItem)}  ${item.ok ? c.green('ok') : c.red('unmet')}  at ${item.currentNode ?? 'done'}  (${item.findings.length} finding${item.findings.length === 1 ? '' : 's'})`);
    out.push(...item.findings.slice(0, FINDINGS_PER_ITEM).map((d) => formatFinding(d, c, '  ').split('\n')[0] as string));
    if (item.findings.length > FINDINGS_PER_ITEM) out.push(c.dim(`  … ${item.findings.length - FINDINGS_PER_ITEM} more: the-loop check ${item.workItem}`));
  }
  return `${out.join('\n')}\n`;
}

function renderMarkdown(report: Report): string {
  const out = [`## the-loop drift report: ${report.specRoot}`, '', `${report.workItems} work items, ${report.items.filter((i) => i.ok).length} complete.`, ''];
  out.push('| artifact | present | by status |', '|---|---|---|');
  for (const [name, count] of Object.entries(report.artifacts)) out.push(`| \`${name}\` | ${count.present} of ${report.workItems} | ${statusList(count.status)} |`);
  out.push('', `**Execution-log phases:** ${statusList(report.executionLogPhases) || 'none'}`, '');
  out.push('| work item | current node | findings |', '|---|---|---|');
  for (const item of report.items) out.push(`| ${item.workItem} | ${item.currentNode ?? 'done'} | ${item.findings.length} |`);
  return `${out.join('\n')}\n`;
}

function statusList(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');
}
