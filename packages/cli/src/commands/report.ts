import { openCached } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { colorEnabled } from '../format/colors.js';
import { workerEntry } from '../bundle-dir.js';
import { evaluateForReport, IN_MEMORY_ITEMS, type SpooledReport } from '../gate/evaluate-many.js';
import { specRootWorkItems } from '../workspace/read-work-item.js';
import { writeInOrder } from '../process/write-in-order.js';
import { openRepo } from '../workspace/repo.js';
import { withScratchDir } from '../workspace/scratch.js';
import { oneOf, parseOptions, type Command } from './command.js';
import { REPORT_FORMATS, rendererOf, type Renderer, type ReportStyle } from '../format/report.js';

const USAGE = `Usage: the-loop report [--repo DIR] [--format table|json|markdown] [--allow-empty] [--no-cache]

The drift report: every work item under the spec root, what it holds and where it stands.
  --format table|json|markdown   table for people (default), json for tools, markdown for a PR comment
  --allow-empty                  a spec root with no work items is not an error
  --no-cache                     parse and evaluate everything afresh instead of reusing .the-loop/local/cache (off in CI anyway)
Exit codes: 0 every work item passes · 1 some work item is unmet · 2 usage/configuration error or no work items`;

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
    const format = oneOf(values.format, REPORT_FORMATS, 'table', '--format');
    const repo = await openCached((options) => openRepo(env.cwd, values.repo, options), env.env, values['no-cache']);
    const ids = await specRootWorkItems(repo, env.stderr, values['allow-empty'] === true);
    const run = async (spool: string | undefined): Promise<number> => {
      const style: ReportStyle = { format, color: format === 'table' && colorEnabled(env.stdout, env.env) };
      const report = await evaluateForReport(repo, ids, workerEntry(), spool, style);
      await writeReport(env.stdout, report, rendererOf(style));
      return report.totals.ok ? 0 : 1;
    };
    // A small report keeps its items in memory; a larger one spools them to a scratch folder.
    return ids.length > IN_MEMORY_ITEMS ? withScratchDir('report', run) : run(undefined);
  },
};

// The report is written a chunk of items at a time, read back from the spool when it has one,
// so a report over any number of work items never holds them all, in memory or in the stream's
// buffer: a slow reader (a pipe) is waited for. Each chunk's text was rendered by the thread that
// evaluated it.
async function writeReport(out: NodeJS.WritableStream, report: SpooledReport, renderer: Renderer): Promise<void> {
  await writeInOrder(out, [renderer.head(report)]);
  await writeInOrder(out, report.texts());
  await writeInOrder(out, [renderer.tail(report)]);
}
