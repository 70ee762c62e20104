import type { Diagnostic, WorkItemResult } from '@the-loop/core';
import { baselineGrownSince } from '../gate/baseline-growth.js';
import { failsCheck, touchedWorkItems, type FailOn } from '@the-loop/hooks';
import { openCached } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { workerEntry } from '../bundle-dir.js';
import { renderCheck, grownText } from '../format/check-set.js';
import { colorEnabled, colorsFor } from '../format/colors.js';
import { githubSummary, repositoryAnnotations, resultAnnotations } from '../format/github.js';
import { DEFAULT_RULES_URL, sarifLines, sarifText } from '../format/sarif.js';
import { evaluateFromDisk } from '../gate/evaluate.js';
import { checkForSet, IN_MEMORY_ITEMS } from '../gate/evaluate-many.js';
import { git, splitZ } from '../git/git.js';
import { writeInOrder } from '../process/write-in-order.js';
import { resolveWorkItem, specRootWorkItems } from '../workspace/read-work-item.js';
import { openRepo } from '../workspace/repo.js';
import { withScratchDir } from '../workspace/scratch.js';
import { oneOf, parseOptions, pullRequestOption, VERSION, type Command } from './command.js';

const USAGE = `Usage: the-loop check <work-item> [--repo DIR] [--format table|json|sarif|github] [--recompute] [--fail-on unmet|block] [--no-cache]
       the-loop check --all [--allow-empty] [options]
       the-loop check --changed-from REF [options]

Evaluates work items' gates by walking the lifecycle graph from its start.
  --format table|json|sarif|github
                        table for people (default), json for tools (one document on stdout),
                        sarif (SARIF 2.1.0) for code scanning, github for Actions annotations
  --recompute           derive the current node from the artifacts alone, ignoring recorded graph state
  --fail-on unmet       exit 1 unless every node passes (default)
  --fail-on block       exit 1 only for findings an agent can fix; a node waiting on a human does not fail
  --all                 check every work item under the spec root (none is an error unless --allow-empty)
  --changed-from REF    check the work items changed between REF's merge base and HEAD (git diff REF...HEAD)
  --rules-url URL       absolute URL of the rules documentation, for SARIF helpUri (default ${DEFAULT_RULES_URL})
  --pr N                under approvals.source: github, the pull request whose reviews approve
                        (default: the GitHub Actions event's pull request, else the current branch's)
  --no-cache            parse every artifact afresh instead of reusing .the-loop/local/cache (off in CI anyway)
Exit codes: 0 ok · 1 gate unmet · 2 usage or configuration error`;

const FORMATS = ['table', 'json', 'sarif', 'github'] as const;
type Format = (typeof FORMATS)[number];

export const command: Command = {
  summary: "evaluate work items' gates",
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(
      args,
      {
        repo: { type: 'string' },
        format: { type: 'string' },
        recompute: { type: 'boolean' },
        'fail-on': { type: 'string' },
        all: { type: 'boolean' },
        'changed-from': { type: 'string' },
        'allow-empty': { type: 'boolean' },
        'rules-url': { type: 'string' },
        pr: { type: 'string' },
        'no-cache': { type: 'boolean' },
      },
      USAGE,
    );
    const selectors = [positionals.length > 0, values.all === true, values['changed-from'] !== undefined].filter(Boolean).length;
    if (selectors !== 1 || positionals.length > 1) throw new UsageError(`check takes exactly one of: a work-item id, --all, --changed-from REF\n${USAGE}`);
    const format = oneOf(values.format, FORMATS, 'table', '--format');
    const failOn = oneOf(values['fail-on'], ['unmet', 'block'] as const, 'unmet', '--fail-on');
    const rulesUrl = values['rules-url'] ?? DEFAULT_RULES_URL;
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(rulesUrl)) throw new UsageError(`--rules-url must be an absolute URL; got "${rulesUrl}"`);
    // An unset CI variable gives an empty ref, and a gate that checked nothing must not pass.
    if (values['changed-from']?.trim() === '') throw new UsageError('--changed-from is empty; it takes a git ref (is the variable that should hold it unset?)');
    // git would read a ref that starts with "-" as one of its own options (--output=FILE writes a file).
    if (values['changed-from']?.startsWith('-')) throw new UsageError(`--changed-from takes a git ref; got "${values['changed-from']}"`);
    const repo = await openCached((options) => openRepo(env.cwd, values.repo, options), env.env, values['no-cache']);
    const options = { recompute: values.recompute === true, env: env.env, pullRequest: pullRequestOption(values.pr, repo, env) };

    if (positionals.length === 1) {
      const id = positionals[0] as string;
      await resolveWorkItem(repo, id);
      const result = await evaluateFromDisk(repo, id, options);
      // The single-item JSON is the original contract and stays exactly as it was.
      if (format === 'json') env.stdout.write(`${JSON.stringify({ schemaVersion: 1, ...result }, null, 2)}\n`);
      else writeOne(format, result, failOn, env, rulesUrl);
      return failsCheck(result, failOn) ? 1 : 0;
    }

    // Only --all refuses an empty spec root: a change may well touch no work item.
    const known = await specRootWorkItems(repo, env.stderr, values.all !== true || values['allow-empty'] === true);
    let ids: string[];
    if (values.all) ids = known;
    else {
      // --relative: paths from the project root, which may sit below the repository's top.
      const changed = splitZ(await git(repo.root, ['diff', '--name-only', '-z', '--no-renames', '--relative', `${values['changed-from']}...HEAD`, '--']));
      const present = new Set(known);
      // A work item the change deleted has nothing left to check.
      ids = touchedWorkItems(repo.config.specDir, changed).filter((id) => present.has(id));
      env.stderr.write(`the-loop: ${ids.length} work item${ids.length === 1 ? '' : 's'} changed since ${values['changed-from']}${ids.length > 0 ? `: ${ids.join(', ')}` : ''}\n`);
    }
    // A baseline may shrink silently; what it accepts since REF is reported, and fails like any error.
    const grownSince = async (): Promise<readonly Diagnostic[]> => (values['changed-from'] === undefined ? [] : baselineGrownSince(repo, values['changed-from']));
    const isError = (d: Diagnostic) => d.severity === 'error';
    const run = async (spool: string | undefined): Promise<number> => {
      const style = { format, color: format === 'table' && colorEnabled(env.stdout, env.env) };
      // Started first, so the baseline file it reads whole is the one the check takes its counts from: one read, one parse.
      const growth = grownSince();
      growth.catch(() => undefined);
      const checked = await checkForSet(repo, ids, workerEntry(), spool, style, failOn, options);
      const grown = await growth;
      const ok = checked.failing.length === 0 && !grown.some(isError);
      if (format === 'sarif') {
        await writeInOrder(env.stdout, sarifText({ version: VERSION, rulesUrl }, checked.texts(), grown));
        return ok ? 0 : 1;
      }
      if (format === 'github') {
        await writeInOrder(env.stdout, checked.texts());
        await writeInOrder(env.stdout, [repositoryAnnotations(grown)]);
        env.stderr.write(githubSummary(checked.count, checked.failing));
        return ok ? 0 : 1;
      }
      if (format === 'table') {
        if (checked.count === 0) env.stdout.write(`No work item under ${repo.config.specDir} to check.\n`);
        await writeInOrder(env.stdout, checked.texts());
        await writeInOrder(env.stdout, [grownText(grown, colorsFor({ isTTY: style.color }, {}))]);
        return ok ? 0 : 1;
      }
      // The document JSON.stringify would give, its results written in as they were rendered.
      const selection = values.all ? { all: true } : { changedFrom: values['changed-from'] };
      const baseline = values['changed-from'] === undefined ? {} : { baselineGrown: grown };
      const document = JSON.stringify({ schemaVersion: 1, specRoot: repo.config.specDir, selection, failOn, ok, failing: checked.failing, results: [], ...baseline }, null, 2);
      if (checked.count === 0) {
        env.stdout.write(`${document}\n`);
        return ok ? 0 : 1;
      }
      const at = document.indexOf('\n  "results": [') + '\n  "results": ['.length;
      await writeInOrder(env.stdout, [`${document.slice(0, at)}\n`]);
      await writeInOrder(env.stdout, checked.texts());
      await writeInOrder(env.stdout, [`  ${document.slice(at)}\n`]);
      return ok ? 0 : 1;
    };
    // A few work items' results are kept in memory; more are spooled to a scratch folder. From
    // 96 on, worker threads check some of them, as a report's do.
    return ids.length > IN_MEMORY_ITEMS ? withScratchDir('check', run) : run(undefined);
  },
};


// One work item's result in a format other than JSON, whose single-id document is its own.
function writeOne(format: Exclude<Format, 'json'>, result: WorkItemResult, failOn: FailOn, env: Parameters<Command['run']>[1], rulesUrl: string): void {
  if (format === 'sarif') env.stdout.write([...sarifText({ version: VERSION, rulesUrl }, [sarifLines(result, failOn)], [])].join(''));
  else if (format === 'github') {
    env.stdout.write(resultAnnotations(result, failOn));
    env.stderr.write(githubSummary(1, failsCheck(result, failOn) ? [result.workItem] : []));
  } else env.stdout.write(renderCheck(result, colorsFor(env.stdout, env.env)));
}
