import { join } from 'node:path';
import { workItemIdProblem } from '@the-loop/core';
import { evaluateFromDisk } from './evaluate.js';
import { currentBranch } from '../git/head.js';
import { mapLimit } from '../workspace/map-limit.js';
import { readIfPresent } from '../workspace/read-file.js';
import { listWorkItems, resolveWorkItem } from '../workspace/read-work-item.js';
import type { Repo } from '../workspace/repo.js';

/** The file a person or a tool writes to say which work item is being worked on. */
export const CURRENT_POINTER = '.the-loop/current';

// Work items evaluated at a time while looking for the only open one.
const BATCH = 4;

export type Resolution = { readonly id: string; readonly via: string } | { readonly id: undefined; readonly why: string };

/**
 * Which work item a hook is about, with nobody setting a variable by hand: an explicit id,
 * else `.the-loop/current`, else the branch name, else the only work item still open.
 */
export async function resolveCurrentWorkItem(repo: Repo, explicit: string | undefined): Promise<Resolution> {
  if (explicit !== undefined) {
    await resolveWorkItem(repo, explicit);
    return { id: explicit, via: '--work-item' };
  }
  const notes: string[] = [];
  let known: string[];
  try {
    known = await listWorkItems(repo);
  } catch (error) {
    // No spec root: nothing to enforce here, which a hook reports rather than fails on.
    return { id: undefined, why: `no current work item: ${(error as Error).message}.` };
  }
  const pointer = await readIfPresent(join(repo.root, CURRENT_POINTER), { within: repo.root }).catch((error: Error) => {
    notes.push(`${CURRENT_POINTER} cannot be read (${error.message})`);
    return undefined;
  });
  if (pointer !== undefined) {
    const id = pointer.trim();
    if (!workItemIdProblem(id) && known.includes(id)) return { id, via: CURRENT_POINTER };
    notes.push(`${CURRENT_POINTER} names "${id}", which is not a work item under ${repo.config.specDir}`);
  }
  const branch = await currentBranch(repo.root);
  if (branch !== undefined) {
    const id = workItemForBranch(branch, known);
    if (id) return { id, via: `branch ${branch}` };
    notes.push(`branch "${branch}" names no work item`);
  }
  // A hook runs on every turn: stop evaluating as soon as a second open item rules this out.
  const open: string[] = [];
  for (let start = 0; start < known.length && open.length < 2; start += BATCH) {
    const results = await mapLimit(known.slice(start, start + BATCH), BATCH, (id) => evaluateFromDisk(repo, id));
    open.push(...results.filter((r) => !r.ok).map((r) => r.workItem));
  }
  if (open.length === 1) return { id: open[0] as string, via: 'the only open work item' };
  notes.push(open.length === 0 ? `no work item under ${repo.config.specDir} is open` : `at least 2 work items are open (${open.slice(0, 2).join(', ')})`);
  return { id: undefined, why: `no current work item: ${notes.join('; ')}. Write its id to ${CURRENT_POINTER} or name the branch after it.` };
}

/**
 * The work-item folder a branch is named after: `issue-123` and `feat/issue-123-login` both
 * name `issue-123`. A segment matches a folder when it equals the name or starts with
 * `<name>-`; the longest match wins, so `issue-12` never claims `issue-123`.
 */
export function workItemForBranch(branch: string, known: readonly string[]): string | undefined {
  const segments = branch.split('/');
  let best: string | undefined;
  for (const id of known) {
    if (!segments.some((s) => s === id || s.startsWith(`${id}-`))) continue;
    if (best === undefined || id.length > best.length) best = id;
  }
  return best;
}
