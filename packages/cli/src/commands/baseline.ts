import { BASELINE_FILE, baselineGrowth, baselineOf } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { formatJson } from '../format/json.js';
import { workerEntry } from '../bundle-dir.js';
import { baselineForSet } from '../gate/evaluate-many.js';
import { loadBaseline, saveBaseline } from '../workspace/baseline-file.js';
import { specRootWorkItems } from '../workspace/read-work-item.js';
import { openRepo } from '../workspace/repo.js';
import { oneOf, parseOptions, type Command } from './command.js';

const USAGE = `Usage: the-loop baseline [--update] [--repo DIR] [--format table|json]

Records today's findings of every work item under the spec root in ${BASELINE_FILE}.
check, report, the harness hooks and the pre-push gate then mark those findings
"baselined": true and do not fail on them, so only new drift fails. A finding is
recognised by its rule, its file and a digest of its own line's text, not its line number.
  --update              rewrite an existing baseline from today's findings (fixed ones drop out)
  --format table|json   a summary for people (default) or one JSON document for tools
check --changed-from REF reports baseline-grown for every entry added since REF.
Exit codes: 0 written · 2 usage or configuration error (a baseline exists and --update was not given)`;

export const command: Command = {
  summary: "record today's findings so only new ones fail",
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, update: { type: 'boolean' }, format: { type: 'string' } }, USAGE);
    if (positionals.length > 0) throw new UsageError(`baseline takes no positional arguments\n${USAGE}`);
    const format = oneOf(values.format, ['table', 'json'] as const, 'table', '--format');
    const repo = await openRepo(env.cwd, values.repo);
    const previous = await loadBaseline(repo);
    if (previous && values.update !== true) throw new UsageError(`${BASELINE_FILE} exists; run \`the-loop baseline --update\` to rewrite it from today's findings`);
    const ids = await specRootWorkItems(repo, env.stderr, true);
    const perItem = await baselineForSet(repo, ids, workerEntry());
    const entries = perItem.flat();
    const baseline = baselineOf(entries);
    await saveBaseline(repo, baseline);
    const findings = entries.reduce((sum, entry) => sum + entry.count, 0);
    const added = baselineGrowth(previous, baseline).reduce((sum, grown) => sum + grown.entry.count - grown.before, 0);
    const removed = previous ? baselineGrowth(baseline, previous).reduce((sum, shrunk) => sum + shrunk.entry.count - shrunk.before, 0) : 0;
    const items = perItem.filter((found) => found.length > 0).length;
    if (format === 'json') {
      env.stdout.write(formatJson({ schemaVersion: 1, file: BASELINE_FILE, workItems: ids.length, findings, added, removed }));
    } else {
      const change = previous ? ` (${added} added, ${removed} removed since the last baseline)` : '';
      env.stdout.write(`${BASELINE_FILE}: ${findings} finding${findings === 1 ? '' : 's'} in ${items} of ${ids.length} work items recorded${change}.\n`);
      if (added > 0 && previous) env.stdout.write('The baseline grew: `check --changed-from` reports each added entry as baseline-grown until the change is accepted in review.\n');
    }
    return 0;
  },
};
