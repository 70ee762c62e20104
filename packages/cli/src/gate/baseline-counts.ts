import { BASELINE_FILE, baselineCounts, baselineCountsByFile, baselineWithin, type BaselineCounts } from '@the-loop/core';
import { baselineCache } from '../cache/baseline-cache.js';
import { readNamedObjects } from '../git/git.js';
import { headCommitFromFiles } from '../git/head.js';
import { baselineObject } from './baseline-growth.js';
import { baselineCountsRead, baselineDigest, loadBaselineCounts, loadBaselineFile, parsed } from '../workspace/baseline-file.js';
import type { Repo } from '../workspace/repo.js';

// The baseline's counts for a command that evaluates one work item: a harness hook on every
// agent turn, `check <id>`.

/**
 * The counts applying the baseline reads for a work item whose findings are on `files`, when the
 * command has not read the baseline whole already: through the baseline cache, a few entries
 * under the SHA-256 of the file's bytes instead of the file parsed whole, which a hook on a
 * repository with a large baseline would pay on every turn. Where the cache holds nothing for
 * these bytes (or there is no cache) the file is read whole, as {@link loadBaselineCounts} reads
 * it, and what was asked for is kept. The counts given cover at least `files`.
 */
export async function loadBaselineCountsFor(repo: Repo, files: ReadonlySet<string>): Promise<BaselineCounts | undefined> {
  if (!repo.cache || baselineCountsRead(repo)) return loadBaselineCounts(repo);
  const digest = await baselineDigest(repo);
  if (digest === undefined) return undefined;
  const kept = baselineCache(repo.root);
  if (kept.parsed(digest)) {
    const counts = new Map<string, number>();
    let whole = true;
    for (const file of files) {
      const entries = kept.countsFor(digest, file);
      if (entries === undefined) whole = false;
      else for (const [key, count] of entries) counts.set(key, count);
    }
    if (whole) return counts;
  }
  const counts = await loadBaselineCounts(repo);
  // Kept under the digest of the bytes counted: the file may have changed since it was digested.
  const counted = await loadBaselineFile(repo);
  if (counts && counted) await kept.keep(counted.digest, baselineCountsByFile(counts, files));
  return counts;
}

/**
 * What a harness hook honours of the baseline: the working tree's baseline without what it grew
 * beyond HEAD's, so an agent that adds its own findings to the baseline in its session gets
 * nothing for it (the entries count once committed, where pre-push and `check --changed-from`
 * judge their growth); as the counts applying it reads for findings on `files`. Undefined when
 * the working tree has no baseline.
 */
export async function committedBaselineCounts(repo: Repo, files: ReadonlySet<string>): Promise<BaselineCounts | undefined> {
  const digest = await baselineDigest(repo);
  if (digest === undefined) return undefined;
  // Unchanged since HEAD, as it is on most stops: it accepts what it holds. Where git said so
  // before, for the commit HEAD names now and these bytes, git is not started again.
  const kept = repo.cache ? baselineCache(repo.root) : undefined;
  const commit = kept ? await headCommitFromFiles(repo.root, process.env) : undefined;
  if (kept && commit !== undefined && kept.committedAt(commit, digest)) return loadBaselineCountsFor(repo, files);
  const now = await loadBaselineFile(repo);
  if (!now) return undefined;
  // No repository or no commit yet: nothing is committed, so nothing is accepted. A committed
  // baseline that does not parse stays the configuration error it is.
  const [head, committed] = await readNamedObjects(repo.root, ['HEAD', baselineObject('HEAD')]).catch(() => []);
  const text = committed?.bytes.toString('utf8');
  if (text === now.text) {
    // Noted only for the commit git read, when HEAD named it before git ran and still does.
    if (kept && commit !== undefined && head?.id === commit && (await headCommitFromFiles(repo.root, process.env)) === commit) await kept.noteCommitted(commit, now.digest);
    return loadBaselineCountsFor(repo, files);
  }
  return baselineCounts(baselineWithin(now.baseline, text === undefined ? undefined : parsed(text, `${BASELINE_FILE} at HEAD`)));
}
