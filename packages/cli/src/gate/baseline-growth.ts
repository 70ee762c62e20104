import { applyRuleLevels, BASELINE_FILE, baselineGrew, baselineUnion, type Baseline, type Diagnostic, type RuleLevels } from '@the-loop/core';
import { loadBaselineFile, parsed } from '../workspace/baseline-file.js';
import type { Repo } from '../workspace/repo.js';
import { git, readObjects } from '../git/git.js';

/** The name git reads the baseline file at `rev` by. */
export function baselineObject(rev: string): string {
  // Paths are taken relative to the project root, which may sit below the repository's top.
  return `${rev}:./${BASELINE_FILE}`;
}

/** The baseline's text as committed at `rev`, or undefined when the commit has none. */
async function baselineTextAt(root: string, rev: string): Promise<string | undefined> {
  const [bytes] = await readObjects(root, [baselineObject(rev)]);
  return bytes?.toString('utf8');
}

/** The baseline as committed at `rev`, or undefined when the commit has none. */
export async function baselineAt(root: string, rev: string): Promise<Baseline | undefined> {
  const text = await baselineTextAt(root, rev);
  return text === undefined ? undefined : parsed(text, `${BASELINE_FILE} at ${rev}`);
}

/**
 * `baseline-grown` for every entry the working tree's baseline accepts beyond what it accepted at
 * the merge base of `ref` and HEAD (the commit `check --changed-from` compares with), at the
 * configured level.
 */
export async function baselineGrownSince(repo: Repo, ref: string): Promise<Diagnostic[]> {
  const now = await loadBaselineFile(repo);
  if (!now) return [];
  const base = (await git(repo.root, ['merge-base', ref, 'HEAD'])).toString('utf8').trim();
  const before = await baselineAt(repo.root, base);
  // Each entry at its line in the file as it is, however it is laid out.
  return applyRuleLevels(baselineGrew(before, now.baseline, now.text, ref), repo.config.gate.rules);
}

/**
 * `baseline-grown` for every entry the baseline of a pushed commit accepts beyond what was
 * already pushed: the baselines of the commits the pushed ones grow from (their parents that a
 * remote-tracking branch, or the remote's own tip `remoteSha`, already holds), taken together so
 * a merge of the default branch brings its reviewed entries along. A push whose every commit is
 * already on a remote adds nothing; one that shares no history with what was pushed before
 * compares with no baseline at all, so each of its entries is new.
 */
export async function baselineGrownInPush(root: string, rules: RuleLevels, pushed: { localSha: string; remoteSha?: string | undefined; remote: string }): Promise<Diagnostic[]> {
  const text = await baselineTextAt(root, pushed.localSha);
  if (text === undefined) return [];
  const now = parsed(text, `${BASELINE_FILE} at ${pushed.localSha}`);
  const not = ['--not', ...(pushed.remoteSha ? [pushed.remoteSha] : []), '--remotes'];
  const lines = (await git(root, ['rev-list', '--boundary', pushed.localSha, ...not])).toString('utf8').split('\n').filter((line) => line !== '');
  const boundary = lines.filter((line) => line.startsWith('-')).map((line) => line.slice(1));
  if (lines.length === boundary.length) return [];
  const before = baselineUnion(await Promise.all(boundary.map((sha) => baselineAt(root, sha))));
  const short = boundary.map((sha) => sha.slice(0, 12)).join(', ');
  const since = boundary.length === 0 ? `any commit already pushed (the push shares no history with ${pushed.remote})` : `the commit${boundary.length === 1 ? '' : 's'} it grows from, already pushed (${short})`;
  return applyRuleLevels(baselineGrew(before, now, text, since), rules);
}
