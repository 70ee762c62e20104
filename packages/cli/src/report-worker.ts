// Worker thread for `report` (or `check` of a set) over many work items: takes chunks of ids from
// the counter the threads share until none is left, renders their items' entries in the report (or
// their results in the check's output), writes that text to each chunk's file and posts back only
// the totals or the failing ids (with no spool it gets the text back too). Each worker opens the repository itself, so only ids, file names, totals and text cross
// threads. It runs from the CLI's own bundle, through the launcher's code cache (`reportWorker`
// in main.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { artifactCache } from './cache/artifact-cache.js';
import { configCache } from './cache/config-cache.js';
import { resultCache } from './cache/result-cache.js';
import type { BaselineCounts } from '@the-loop/core';
import { evaluateChunk, takeChunk, type SharedChunks } from './gate/evaluate-many.js';
import { useBaselineCounts } from './workspace/baseline-file.js';
import { loadRepo } from './workspace/repo.js';

interface Setup {
  readonly root: string;
  /** Whether the run reads through the artifact cache (and a report the result cache beside it). */
  readonly cache: boolean;
  readonly shared: SharedChunks;
  /** The V8 code cache the worker's entry compiles the bundle through, before this runs (scripts/cli-bundle.mjs). */
  readonly codeCache: string | undefined;
  /** The baseline's counts as the command read them (none: it has no baseline), when its items apply one. */
  readonly accepted: { readonly counts: BaselineCounts | undefined } | undefined;
}

/** Evaluate chunks for the report or check that started this worker until every chunk is taken. */
export async function serve(): Promise<void> {
  const setup = workerData as Setup;
  const port = parentPort;
  if (!port) return;
  const opened = await loadRepo(setup.root, setup.cache ? { configCache } : {});
  const repo = setup.cache ? { ...opened, cache: artifactCache(setup.root), results: resultCache(setup.root) } : opened;
  if (setup.accepted) useBaselineCounts(repo, setup.accepted.counts);
  for (let chunk = takeChunk(setup.shared); chunk !== undefined; chunk = takeChunk(setup.shared)) {
    port.postMessage({ chunk, totals: await evaluateChunk(repo, setup.shared, chunk) });
  }
}
