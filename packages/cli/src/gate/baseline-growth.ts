import { applyRuleLevels, BASELINE_FILE, baselineGrew, serializeBaseline, type Baseline, type Diagnostic } from '@the-loop/core';
import { loadBaseline, parsed } from '../workspace/baseline-file.js';
import type { Repo } from '../workspace/repo.js';
import { git, splitZ } from '../git/git.js';

/** The baseline as committed at `rev`, or undefined when the commit has none. */
export async function baselineAt(root: string, rev: string): Promise<Baseline | undefined> {
  // Paths are taken relative to the project root, which may sit below the repository's top.
  const listed = splitZ(await git(root, ['ls-tree', '-z', '--name-only', rev, '--', BASELINE_FILE]));
  if (listed.length === 0) return undefined;
  return parsed((await git(root, ['cat-file', 'blob', `${rev}:./${BASELINE_FILE}`])).toString('utf8'), `${BASELINE_FILE} at ${rev}`);
}

/**
 * `baseline-grown` for every entry the working tree's baseline accepts beyond what it accepted at
 * the merge base of `ref` and HEAD (the commit `check --changed-from` compares with), at the
 * configured level.
 */
export async function baselineGrownSince(repo: Repo, ref: string): Promise<Diagnostic[]> {
  const now = await loadBaseline(repo);
  if (!now) return [];
  const base = (await git(repo.root, ['merge-base', ref, 'HEAD'])).toString('utf8').trim();
  const before = await baselineAt(repo.root, base);
  return applyRuleLevels(baselineGrew(before, now, serializeBaseline(now), ref), repo.config.gate.rules);
}
