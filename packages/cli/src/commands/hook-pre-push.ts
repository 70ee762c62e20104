import { access, constants, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BASELINE_FILE, howItEnded } from '@the-loop/core';
import { blockingFindings, failsCheck, isZeroSha, parsePushUpdates, touchedWorkItems, type PushUpdate } from '@the-loop/hooks';
import { cacheFor } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { colorsFor } from '../format/colors.js';
import { formatFinding } from '../format/findings.js';
import { materializeCommitPaths } from '../git/commit-tree.js';
import { baselineGrownInPush } from '../gate/baseline-growth.js';
import { evaluateFromDisk } from '../gate/evaluate.js';
import { git, splitZ } from '../git/git.js';
import { listWorkItems } from '../workspace/read-work-item.js';
import { loadRepo } from '../workspace/repo.js';
import { withScratchDir } from '../workspace/scratch.js';
import { runProcess } from '../process/run-process.js';
import { parseOptions, type CommandEnv } from './command.js';
import { readStdin } from '../process/read-stdin.js';

export const PRE_PUSH_USAGE = `Usage: the-loop hook pre-push [--repo DIR] [--chain PATH] [<remote> [<url>]]

git's pre-push hook: reads "<local ref> <local sha> <remote ref> <remote sha>" lines on stdin,
finds the work items the pushed commits touch under the spec root, and runs
\`check --fail-on block\` on each as it is in the pushed commit. A pushed
.the-loop/baseline.json that accepts findings the commits it grows from did not
(\`baseline-grown\`) refuses the push too.
  --chain PATH   a previous pre-push hook to run after the gate passes (same stdin and arguments)
Exit codes: 0 push allowed · 1 a touched work item is unmet · 2 the gate could not run (the push is refused)`;

/** The pre-push gate. Unlike a harness hook it fails closed: an error refuses the push. */
export async function runPrePush(args: readonly string[], env: CommandEnv): Promise<number> {
  const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, chain: { type: 'string' } }, PRE_PUSH_USAGE);
  const stdin = await readStdin(env);
  const parsed = parsePushUpdates(stdin);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const cwd = resolve(env.cwd, values.repo ?? '.');
  const root = (await git(cwd, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  const c = colorsFor(env.stderr, env.env);
  let refused = false;
  let checked = 0;
  for (const update of parsed.updates) {
    if (isZeroSha(update.localSha)) continue;
    const outcome = await checkUpdate(root, update, positionals[0] ?? 'the remote', env, c);
    checked += outcome.checked;
    refused ||= outcome.refused;
  }
  if (refused) {
    env.stderr.write(`the-loop pre-push: push refused; fix the findings above (or ask for the human gate they wait on) and push again.\n`);
    return 1;
  }
  env.stderr.write(`the-loop pre-push: ${checked === 0 ? 'the push touches no work item' : `${checked} work item${checked === 1 ? '' : 's'} checked, none blocks`}.\n`);
  return runChained(values.chain, positionals, stdin, root, env);
}

async function checkUpdate(root: string, update: PushUpdate, remote: string, env: CommandEnv, c: ReturnType<typeof colorsFor>): Promise<{ checked: number; refused: boolean }> {
  const remoteSha = !isZeroSha(update.remoteSha) && (await git(root, ['cat-file', '-e', `${update.remoteSha}^{commit}`]).then(() => true, () => false)) ? update.remoteSha : undefined;
  const paths = await pushedPaths(root, update.localSha, remoteSha);
  return withScratchDir('push', async (temp) => {
    // The gate reads the configuration and the work items as they are in the pushed commit.
    await materializeCommitPaths(root, update.localSha, ['.the-loop'], temp);
    // The pushed files are content-addressed like any others: the repository's own cache serves them.
    const probe = { ...(await loadRepo(temp)), cache: cacheFor(root, env.env, false) };
    const ids = touchedWorkItems(probe.config.specDir, paths);
    await materializeCommitPaths(root, update.localSha, ids.map((id) => `${probe.config.specDir}/${id}`), temp);
    // A push that deletes the whole spec root leaves nothing to check; any other listing error refuses the push.
    const specRootLeft = ids.length > 0 && (await stat(probe.specRoot).then((s) => s.isDirectory(), () => false));
    const present = new Set(specRootLeft ? await listWorkItems(probe) : []);
    let refused = false;
    let checked = 0;
    for (const id of ids) {
      if (!present.has(id)) continue; // deleted by the push: nothing left to check
      checked += 1;
      const result = await evaluateFromDisk(probe, id);
      if (!failsCheck(result, 'block')) continue;
      refused = true;
      const blocking = blockingFindings(result);
      env.stderr.write(`${c.bold(`the-loop pre-push: ${id}`)} (${update.localRef} → ${update.remoteRef}) blocks at "${result.currentNode ?? 'done'}":\n`);
      env.stderr.write(`${blocking.map((d) => formatFinding(d, c, '  ')).join('\n')}\n`);
    }
    // A push whose commits leave the baseline alone cannot grow it.
    if (paths.includes(BASELINE_FILE)) {
      const grown = await baselineGrownInPush(root, probe.config.gate.rules, { localSha: update.localSha, remoteSha, remote });
      if (grown.length > 0) {
        const blocks = grown.some((d) => d.severity === 'error');
        refused ||= blocks;
        env.stderr.write(`${c.bold(`the-loop pre-push: ${BASELINE_FILE}`)} (${update.localRef} → ${update.remoteRef}) accepts findings that were not accepted before${blocks ? '' : ' (warnings: the push goes on)'}:\n`);
        env.stderr.write(`${grown.map((d) => formatFinding(d, c, '  ')).join('\n')}\n`);
      }
    }
    return { checked, refused };
  });
}

// Every path a pushed commit touched. For a branch the remote does not have yet (or whose tip
// is not in this clone), every commit not already on a remote-tracking branch counts as pushed.
async function pushedPaths(root: string, localSha: string, remoteSha: string | undefined): Promise<string[]> {
  const range = remoteSha ? [`${remoteSha}..${localSha}`] : [localSha, '--not', '--remotes'];
  return [...new Set(splitZ(await git(root, ['log', '--format=', '--name-only', '-z', '-m', '--no-renames', ...range])).map((p) => p.trim()).filter((p) => p !== ''))];
}

async function runChained(chain: string | undefined, args: readonly string[], stdin: string, root: string, env: CommandEnv): Promise<number> {
  if (chain === undefined) return 0;
  const path = resolve(root, chain);
  // git runs only executable hooks; the chained one follows the same rule.
  if (!(await access(path, constants.X_OK).then(() => true, () => false))) return 0;
  const request = { command: path, args, cwd: root, stdin, env: env.env, timeoutMs: 10 * 60_000 };
  const result = await runProcess(request);
  env.stdout.write(result.stdoutBytes);
  env.stderr.write(result.stderr);
  if (result.exitCode !== null && !result.timedOut) return result.exitCode;
  // A chained hook that did not run to its own exit refuses the push: the gate could not run.
  env.stderr.write(`the-loop pre-push: the chained hook ${chain}: ${howItEnded(request, result)}\n`);
  return 2;
}
