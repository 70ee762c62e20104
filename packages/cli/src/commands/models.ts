import { basename, join } from 'node:path';
import {
  argvForDigest,
  cachedVerdict,
  classifyProbe,
  declaredModelPairs,
  parseVerdictFile,
  PROBE_PROMPT,
  verdictKey,
  type HarnessAdapter,
  type ModelPair,
  type ModelVerdict,
} from '@the-loop/core';
import { UsageError } from '../errors.js';
import { colorsFor } from '../format/colors.js';
import { columns } from '../format/findings.js';
import { openRepo } from '../workspace/repo.js';
import { loadReviews } from '../workspace/reviews.js';
import { withLocalLock, writeStateFile } from '../state/local-state.js';
import { oneOf, parseOptions, unknownSubcommand, type Command, type CommandEnv } from './command.js';
import { runOnPath } from '../process/run-process.js';
import { withHooksOff } from '../harness/hooks-off.js';
import { sha256 } from '../workspace/digest.js';
import { READ_LIMITS } from '../limits.js';
import { readIfPresent } from '../workspace/read-file.js';

const USAGE = `Usage: the-loop models check [--repo DIR] [--refresh] [--timeout SECONDS] [--format table|json]

Probes every harness/model pair the critics declare (reviews.critics[] on a built-in harness)
with a tiny prompt through the adapter's own one-shot argv. Verdicts: ok · refused (the harness
ran and refused the model) · unknown (no answer: binary missing, timeout, a model API error that
is not about the model — reason api-error — or the harness rejected one of the-loop's flags —
reason flag-rejected, which is a defect in the-loop, not a refusal).
ok and refused verdicts are cached in .the-loop/local/model-verdicts.json with the SHA-256 of the
argv they were taken against; a changed argv re-probes. --refresh ignores the cache.
Exit codes: 0 every model ok · 1 some model refused or unknown · 2 usage or configuration error`;

/** Where verdicts are kept, relative to the project root (not committed). */
export const VERDICT_FILE = '.the-loop/local/model-verdicts.json';
const DEFAULT_PROBE_TIMEOUT_SECONDS = 120;

export const command: Command = {
  summary: 'probe the models the critics declare and cache the verdicts',
  usage: USAGE,
  async run(args, env) {
    const [sub, ...rest] = args;
    if (sub !== 'check') throw unknownSubcommand('models', sub, ['check']);
    return modelsCheck(rest, env);
  },
};

async function modelsCheck(args: readonly string[], env: CommandEnv): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { repo: { type: 'string' }, refresh: { type: 'boolean' }, format: { type: 'string' }, timeout: { type: 'string' } },
    USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`models check takes no arguments\n${USAGE}`);
  const format = oneOf(values.format, ['table', 'json'] as const, 'table', '--format');
  const timeoutSeconds = values.timeout === undefined ? DEFAULT_PROBE_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError(`--timeout must be a finite number of seconds greater than 0; got "${values.timeout}"`);
  const repo = await openRepo(env.cwd, values.repo);
  const reviews = loadReviews(repo);
  const pairs = declaredModelPairs(reviews.critics, env.adapters);

  const file = join(repo.root, VERDICT_FILE);
  // An unreadable cache is an empty one: its models are probed again, never trusted.
  const cache = parseVerdictFile(await readIfPresent(file, { within: repo.root, maxBytes: READ_LIMITS.local }).catch(() => undefined));
  const results: (ModelVerdict & { cached: boolean })[] = [];
  for (const pair of pairs) {
    const adapter = env.adapters.find((candidate) => candidate.name === pair.harness) as HarnessAdapter;
    const oneShot = adapter.oneShot({ prompt: PROBE_PROMPT, model: pair.model, outputFormat: 'json' });
    const argvDigest = sha256(argvForDigest(adapter.binary, oneShot.args));
    const hit = values.refresh === true ? undefined : cachedVerdict(cache, pair, argvDigest);
    if (hit) {
      results.push({ ...hit, cached: true });
      continue;
    }
    const verdict = await probe(adapter, pair, oneShot, argvDigest, repo.root, env, timeoutSeconds);
    // Only answers are remembered; "unknown" is re-probed next time rather than trusted.
    if (verdict.verdict !== 'unknown') cache[verdictKey(pair)] = verdict;
    results.push({ ...verdict, cached: false });
  }
  if (results.some((result) => !result.cached && result.verdict !== 'unknown')) {
    // The local-state directory ignores itself in git and serialises writers.
    await withLocalLock(repo.root, (dir) => writeStateFile(dir, basename(VERDICT_FILE), { schemaVersion: 1, verdicts: cache }));
  }

  if (format === 'json') env.stdout.write(`${JSON.stringify({ schemaVersion: 1, models: results }, null, 2)}\n`);
  else if (results.length === 0) env.stdout.write('no models declared: no critic names a built-in harness (reviews.critics[].harness)\n');
  else {
    const c = colorsFor(env.stdout, env.env);
    const paint = (verdict: string) => (verdict === 'ok' ? c.green(verdict) : verdict === 'refused' ? c.red(verdict) : c.yellow(verdict));
    const rows = [
      ['harness/model', 'verdict', 'reason', 'message'].map((h) => c.bold(h)),
      ...results.map((r) => [`${r.harness}/${r.model}`, paint(r.verdict), `${r.reason}${r.cached ? ' (cached)' : ''}`, r.message]),
    ];
    env.stdout.write(`${columns(rows).join('\n')}\n`);
  }
  return results.every((result) => result.verdict === 'ok') ? 0 : 1;
}

async function probe(
  adapter: HarnessAdapter,
  pair: ModelPair,
  oneShot: { args: readonly string[]; stdin?: string | undefined },
  argvDigest: string,
  root: string,
  env: CommandEnv,
  timeoutSeconds: number,
): Promise<ModelVerdict> {
  const observation = await runOnPath({ command: adapter.binary, args: oneShot.args, stdin: oneShot.stdin, cwd: root, env: withHooksOff(env.env), timeoutMs: timeoutSeconds * 1000 });
  const { verdict, reason, message } = classifyProbe(observation, adapter);
  return { harness: pair.harness, model: pair.model ?? 'default', verdict, reason, message, argvDigest, checkedAt: env.now().toISOString() };
}
