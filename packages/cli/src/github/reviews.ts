import { parseJson, type GitHubConfig } from '@the-loop/core';
import type { GhCall, RestCall } from './client.js';

/** One pull-request review as GitHub reports it. */
export interface Review {
  readonly id: number;
  readonly login: string;
  /** `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`, `DISMISSED` or `PENDING`. */
  readonly state: string;
  /** The commit the review was made on. */
  readonly commit: string;
  readonly submittedAt: string;
  readonly url: string | undefined;
}

/** How pull requests are read from GitHub: the `gh` CLI or the REST API. */
export interface PullRequestPort {
  /** Every submitted review of pull request `number`, oldest first; every page of them. */
  reviews(number: number): Promise<Review[]>;
  /** The open pull request whose head is `branch` in the configured repository, if there is one. */
  pullRequestFor(branch: string): Promise<number | undefined>;
}

const PER_PAGE = 100;
// 2,000 reviews; a list longer than that is not a pull request a person reviewed, and reading on
// would let a hostile server keep the gate busy.
const MAX_PAGES = 20;

/** A budget of time shared by every call of one read: past it, calls fail instead of starting. */
export function deadline(ms: number, now: () => number = Date.now): () => number {
  const end = now() + ms;
  return () => {
    const left = end - now();
    if (left <= 0) throw new Error(`GitHub did not answer within ${ms / 1000} s`);
    return left;
  };
}

/** Reviews and pull requests through `gh api` and `gh pr view`. */
export function ghPullRequestPort(config: GitHubConfig, gh: GhCall, remaining: () => number): PullRequestPort {
  return {
    reviews: (number) => allPages(async (page) => parsePage(await gh(['api', reviewsPath(config, number, page)], remaining()), `page ${page} of the reviews`)),
    async pullRequestFor(branch) {
      let text: string;
      try {
        text = await gh(['pr', 'view', branch, '--repo', config.repo, '--json', 'number'], remaining());
      } catch (error) {
        // gh says "no pull requests found for branch …" with exit 1; nothing else tells it apart.
        if (/no (open )?pull requests? found/i.test((error as Error).message)) return undefined;
        throw error;
      }
      const parsed = parseJson(text);
      const number = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>)['number'] : undefined;
      if (!isPullRequestNumber(number)) throw new Error('gh pr view answered without a pull request number');
      return number;
    },
  };
}

/** Reviews and pull requests through the REST API. */
export function restPullRequestPort(config: GitHubConfig, rest: RestCall, remaining: () => number): PullRequestPort {
  const get = async (path: string): Promise<string> => {
    const answer = await rest('GET', path, { timeoutMs: remaining() });
    if (!answer.ok) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    return answer.text;
  };
  return {
    reviews: (number) => allPages(async (page) => parsePage(await get(`/${reviewsPath(config, number, page)}`), `page ${page} of the reviews`)),
    async pullRequestFor(branch) {
      const owner = config.repo.split('/')[0] ?? '';
      const list = parseJson(await get(`/repos/${config.repo}/pulls?state=open&per_page=2&head=${encodeURIComponent(`${owner}:${branch}`)}`));
      if (!list.ok || !Array.isArray(list.value)) throw new Error('the pull-request list is not a JSON list');
      const number = (list.value[0] as Record<string, unknown> | undefined)?.['number'];
      return isPullRequestNumber(number) ? number : undefined;
    },
  };
}

function reviewsPath(config: GitHubConfig, number: number, page: number): string {
  return `repos/${config.repo}/pulls/${number}/reviews?per_page=${PER_PAGE}&page=${page}`;
}

// Pages until one comes back short; a list that never ends is an error, never a partial answer.
async function allPages(read: (page: number) => Promise<{ count: number; reviews: Review[] }>): Promise<Review[]> {
  const all: Review[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { count, reviews } = await read(page);
    all.push(...reviews);
    if (count < PER_PAGE) return all.sort((a, b) => (a.submittedAt < b.submittedAt ? -1 : a.submittedAt > b.submittedAt ? 1 : a.id - b.id));
  }
  throw new Error(`the pull request has more than ${MAX_PAGES * PER_PAGE} reviews; the-loop reads no further`);
}

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-_.]*(\[bot\])?$/;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

// One page: a JSON list. Entries without a login (a deleted account), a commit or a submission
// time (a pending review) are not reviews anyone submitted, and are left out.
function parsePage(text: string, what: string): { count: number; reviews: Review[] } {
  const parsed = parseJson(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) throw new Error(`${what} is not a JSON list`);
  const reviews: Review[] = [];
  for (const item of parsed.value as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as Record<string, unknown>;
    const user = entry['user'] as Record<string, unknown> | null | undefined;
    const login = typeof user === 'object' && user !== null ? user['login'] : undefined;
    const { id, state, commit_id: commit, submitted_at: submittedAt, html_url: url } = entry;
    if (typeof id !== 'number' || typeof login !== 'string' || !LOGIN.test(login) || typeof state !== 'string') continue;
    if (typeof commit !== 'string' || !COMMIT.test(commit) || typeof submittedAt !== 'string') continue;
    reviews.push({ id, login, state, commit, submittedAt, url: typeof url === 'string' ? url : undefined });
  }
  return { count: parsed.value.length, reviews };
}

function isPullRequestNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
