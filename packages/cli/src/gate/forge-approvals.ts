import type { Approval, Collaborator, GitHubConfig, WorkItemInput } from '@the-loop/core';
import { ghCall, restCall, restToken } from '../github/client.js';
import { choosePullRequest } from '../github/pull-request.js';
import { deadline, ghPullRequestPort, restPullRequestPort, type PullRequestPort, type Review } from '../github/reviews.js';
import { git, readObjects } from '../git/git.js';
import { approvalDigest } from '../workspace/digest.js';
import type { Repo } from '../workspace/repo.js';

/** Where GitHub is reached from, and which pull request a command named. */
export interface ForgeOptions {
  readonly env: NodeJS.ProcessEnv;
  /** `--pr N`; otherwise the GitHub Actions event's pull request, or the current branch's. */
  readonly pullRequest?: number | undefined;
}

/** Approvals read from a pull request's reviews, or why they could not be read. */
export type ForgeApprovals = Pick<WorkItemInput, 'approvals' | 'approvalsUnavailable'>;

type ReviewRead = { readonly number: number; readonly reviews: readonly Review[] } | { readonly unavailable: string };

// A pull request's reviews are read once per process, however many work items ask.
const reads = new WeakMap<Repo, Map<string, Promise<ReviewRead>>>();

/**
 * The approvals GitHub authenticated for a work item: for each reviewer whose latest review of
 * the pull request is `APPROVED` (not dismissed, not followed by `CHANGES_REQUESTED`), one
 * approval per artifact, bound to the artifact at the reviewed commit as `graph approve` binds it.
 * Whether the reviewer is an approver, and whether those bytes are the file's now, is the gate's
 * to judge. No pull request, no token or no answer leaves no approvals and says why.
 */
export async function forgeApprovals(repo: Repo, github: GitHubConfig, input: WorkItemInput, collaborators: readonly Collaborator[], options: ForgeOptions): Promise<ForgeApprovals> {
  const read = await reviewsOf(repo, github, options);
  if ('unavailable' in read) return { approvals: [], approvalsUnavailable: read.unavailable };
  const approving = latestApprovals(read.reviews);
  const names = [...(input.digests ?? new Map()).keys()];
  if (approving.length === 0 || names.length === 0) return { approvals: [] };
  const copies = await copiesAtCommits(repo.root, input.dir, [...new Set(approving.map((r) => r.commit))], names);
  const loginOf = (login: string): string => collaborators.find((c) => c.login.toLowerCase() === login.toLowerCase())?.login ?? login;
  const approvals = approving.flatMap((review) =>
    names.map((artifact): Approval => {
      const copy = copies(review.commit, artifact);
      return {
        artifact,
        digest: 'bytes' in copy ? approvalDigest(artifact, copy.bytes) : '',
        by: loginOf(review.login),
        at: review.submittedAt,
        reviewed: { commit: review.commit, url: review.url, ...('problem' in copy ? { problem: copy.problem } : {}) },
      };
    }),
  );
  return { approvals };
}

/** Each reviewer's latest review that approves or requests changes; those that approve. Comments change nothing, as on GitHub. */
export function latestApprovals(reviews: readonly Review[]): Review[] {
  const latest = new Map<string, Review>();
  for (const review of reviews) {
    if (review.state === 'APPROVED' || review.state === 'CHANGES_REQUESTED' || review.state === 'DISMISSED') latest.set(review.login.toLowerCase(), review);
  }
  return [...latest.values()].filter((review) => review.state === 'APPROVED');
}

function reviewsOf(repo: Repo, github: GitHubConfig, options: ForgeOptions): Promise<ReviewRead> {
  let perRepo = reads.get(repo);
  if (!perRepo) reads.set(repo, (perRepo = new Map()));
  const key = String(options.pullRequest ?? 'auto');
  let read = perRepo.get(key);
  if (!read) {
    read = readReviews(repo, github, options);
    perRepo.set(key, read);
  }
  return read;
}

async function readReviews(repo: Repo, github: GitHubConfig, options: ForgeOptions): Promise<ReviewRead> {
  const remaining = deadline(github.timeoutSeconds * 1000);
  let port: PullRequestPort;
  if (github.port === 'rest') {
    const token = restToken(options.env);
    if (!token) return { unavailable: 'github.port is rest, but neither GITHUB_TOKEN nor GH_TOKEN is set' };
    port = restPullRequestPort(github, restCall(github, token), remaining);
  } else port = ghPullRequestPort(github, ghCall(options.env, repo.root), remaining);
  try {
    const choice = await choosePullRequest(options.pullRequest, github, options.env, repo.root, port);
    if ('none' in choice) return { unavailable: choice.none };
    try {
      return { number: choice.number, reviews: await port.reviews(choice.number) };
    } catch (error) {
      return { unavailable: `pull request #${choice.number} (from ${choice.via}): ${(error as Error).message}` };
    }
  } catch (error) {
    return { unavailable: `the pull request could not be found: ${(error as Error).message}` };
  }
}

type Copy = { readonly bytes: Buffer } | { readonly problem: string };

// The artifacts' bytes at each reviewed commit, with one `git cat-file --batch`.
async function copiesAtCommits(root: string, dir: string, commits: readonly string[], names: readonly string[]): Promise<(commit: string, name: string) => Copy> {
  let objects: (Buffer | undefined)[];
  let prefix: string;
  try {
    prefix = (await git(root, ['rev-parse', '--show-prefix'])).toString('utf8').trim();
    const specs = commits.flatMap((commit) => [`${commit}^{commit}`, ...names.map((name) => `${commit}:${prefix}${dir}/${name}`)]);
    objects = await readObjects(root, specs);
  } catch (error) {
    const reason = `the reviewed commit could not be read: ${(error as Error).message}`;
    return () => ({ problem: reason });
  }
  const stride = names.length + 1;
  return (commit, name) => {
    const at = commits.indexOf(commit) * stride;
    if (objects[at] === undefined) return { problem: `commit ${commit.slice(0, 12)} is not in this clone (fetch the pull request's commits)` };
    const bytes = objects[at + 1 + names.indexOf(name)];
    return bytes === undefined ? { problem: `that commit holds no ${prefix}${dir}/${name}` } : { bytes };
  };
}
