import { READ_LIMITS } from '../limits.js';
import { readIfPresent } from '../workspace/read-file.js';
import { listedHas, type FolderListing } from '../workspace/read-work-item.js';
import { join } from 'node:path';
import { GRAPH_STATE_FILE, parseGraphState, serializeGraphState, type GraphState, type GraphStateResult } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { withLock, type LockOptions } from './lock.js';
import type { Repo } from '../workspace/repo.js';

/** The state file's path relative to the repository root, as messages name it. */
export function statePathOf(repo: Repo, id: string): string {
  return `${repo.config.specDir}/${id}/${GRAPH_STATE_FILE}`;
}

/**
 * Read a work item's graph state without judging it: undefined when there is none, else valid or
 * invalid with where. A `listing` of the folder without the file says there is none.
 */
export async function readGraphState(repo: Repo, id: string, listing?: FolderListing): Promise<GraphStateResult | undefined> {
  if (listing !== undefined && listedHas(listing, GRAPH_STATE_FILE) === false) return undefined;
  let text: string | undefined;
  try {
    text = await readIfPresent(join(repo.specRoot, id, GRAPH_STATE_FILE), { within: repo.root, maxBytes: READ_LIMITS.graphState });
  } catch (error) {
    return { ok: false, issues: [{ file: statePathOf(repo, id), line: 1, column: 1, message: `cannot be read: ${(error as Error).message}` }] };
  }
  return text === undefined ? undefined : parseGraphState(statePathOf(repo, id), text, id, repo.config.graph);
}

/** Read the state for a command: a corrupt file stops the command (exit 2), never resets. */
export async function loadGraphState(repo: Repo, id: string): Promise<GraphState | undefined> {
  const read = await readGraphState(repo, id);
  if (read === undefined || read.ok) return read?.state;
  const title = read.migration === undefined ? 'the graph state is invalid (fix or restore it; it is never reset silently)' : `the graph state cannot be used. ${read.migration}`;
  throw configurationError(title, read.issues);
}

/** Write the state atomically. Call it inside `withStateLock`. */
export async function saveGraphState(repo: Repo, id: string, state: GraphState): Promise<void> {
  await writeFileAtomic(join(repo.specRoot, id, GRAPH_STATE_FILE), serializeGraphState(state));
}

/** Hold the work item's state lock while `fn` reads, decides and writes. */
export function withStateLock<T>(repo: Repo, id: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
  return withLock(join(repo.specRoot, id, `${GRAPH_STATE_FILE}.lock`), statePathOf(repo, id), fn, options);
}
