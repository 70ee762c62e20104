import type { WorkItemResult } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { colorsFor, type Colors } from '../format/colors.js';
import { columns, formatFinding } from '../format/findings.js';
import { evaluateFromDisk } from '../io/evaluate.js';
import { resolveWorkItem } from '../io/read-work-item.js';
import { openRepo } from '../io/repo.js';
import { oneOf, parseOptions, type Command } from '../main.js';

const USAGE = `Usage: the-loop check <work-item> [--repo DIR] [--format table|json] [--recompute] [--fail-on unmet|block]

Evaluates the work item's gates by walking the lifecycle graph from its start.
  --format table|json   table for people (default), json for tools: one document on stdout
  --recompute           derive the current node from the artifacts alone, ignoring recorded graph state
  --fail-on unmet       exit 1 unless every node passes (default)
  --fail-on block       exit 1 only for findings an agent can fix; a node waiting on a human does not fail
Exit codes: 0 ok · 1 gate unmet · 2 usage or configuration error`;

const FORMATS = ['table', 'json'] as const;

export const command: Command = {
  summary: "evaluate one work item's gates",
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(
      args,
      {
        repo: { type: 'string' },
        format: { type: 'string' },
        recompute: { type: 'boolean' },
        'fail-on': { type: 'string' },
      },
      USAGE,
    );
    if (positionals.length !== 1) throw new UsageError(`check takes exactly one work-item id\n${USAGE}`);
    const format = oneOf(values.format, FORMATS, 'table', '--format');
    const failOn = oneOf(values['fail-on'], ['unmet', 'block'] as const, 'unmet', '--fail-on');
    const id = positionals[0] as string;
    const repo = await openRepo(env.cwd, values.repo);
    await resolveWorkItem(repo, id);
    const result = await evaluateFromDisk(repo, id, { recompute: values.recompute === true });
    if (format === 'json') env.stdout.write(`${JSON.stringify({ schemaVersion: 1, ...result }, null, 2)}\n`);
    else env.stdout.write(renderCheck(result, colorsFor(env.stdout, env.env)));
    return failed(result, failOn) ? 1 : 0;
  },
};

/** Whether a result fails under the chosen mode. */
export function failed(result: WorkItemResult, failOn: 'unmet' | 'block'): boolean {
  if (failOn === 'unmet') return !result.ok;
  return result.nodes.some((node) => node.outcome === 'block' && node.findings.some((d) => d.severity === 'error'));
}

function renderCheck(result: WorkItemResult, c: Colors): string {
  const headline = result.ok
    ? c.green(`${result.workItem}: every gate passes`)
    : `${c.bold(result.workItem)}: current node ${c.bold(result.currentNode ?? '—')}`;
  const rows = result.nodes.map((node) => {
    const outcome = node.outcome ?? '';
    const paint = outcome === 'pass' || outcome === 'skip' ? c.green : outcome === 'wait' ? c.yellow : outcome === 'block' ? c.red : c.dim;
    return [`  ${node.node}`, node.status, paint(outcome), node.findings.length > 0 ? `${node.findings.length} finding${node.findings.length === 1 ? '' : 's'}` : ''];
  });
  const lines = [headline, '', ...columns(rows)];
  if (result.findings.length > 0) lines.push('', ...result.findings.map((d) => formatFinding(d, c)));
  return `${lines.join('\n')}\n`;
}
