import { parseJson, type GitHubConfig } from '@the-loop/core';
import { currentBranch } from '../git/head.js';
import { readIfPresent } from '../workspace/read-file.js';
import type { PullRequestPort } from './reviews.js';

// An Actions event payload is a few kilobytes; a larger file is not one.
const MAX_EVENT_BYTES = 25 * 1024 * 1024;

/** The pull request whose reviews count, and how it was found; or why there is none. */
export type PullRequestChoice = { readonly number: number; readonly via: string } | { readonly none: string };

/**
 * Which pull request's reviews approve the work: the one named with `--pr N`; else the one a
 * GitHub Actions event is about (for this repository); else the open one for the branch checked
 * out in `root`, asked of GitHub.
 */
export async function choosePullRequest(explicit: number | undefined, config: GitHubConfig, env: NodeJS.ProcessEnv, root: string, port: PullRequestPort): Promise<PullRequestChoice> {
  if (explicit !== undefined) return { number: explicit, via: '--pr' };
  const fromEvent = await eventPullRequest(env, config);
  if (fromEvent !== undefined) return { number: fromEvent, via: 'the GitHub Actions event' };
  const branch = await currentBranch(root);
  if (branch === undefined) return { none: 'no pull request: none was named (--pr N), no GitHub Actions event names one, and HEAD is on no branch' };
  const number = await port.pullRequestFor(branch);
  if (number === undefined) return { none: `no open pull request for branch "${branch}" in ${config.repo}` };
  return { number, via: `branch ${branch}` };
}

// `pull_request`, `pull_request_target` and `pull_request_review` events carry the pull request;
// an event from another repository (a fork's workflow) says nothing about this one.
async function eventPullRequest(env: NodeJS.ProcessEnv, config: GitHubConfig): Promise<number | undefined> {
  const path = env['GITHUB_EVENT_PATH'];
  if (!path) return undefined;
  const parsed = parseJson((await readIfPresent(path, { maxBytes: MAX_EVENT_BYTES }).catch(() => undefined)) ?? '');
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const event = parsed.value as { pull_request?: { number?: unknown }; repository?: { full_name?: unknown } };
  const repository = event.repository?.full_name;
  if (typeof repository === 'string' && repository.toLowerCase() !== config.repo.toLowerCase()) return undefined;
  const number = event.pull_request?.number;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}
