// Worker thread for `report` over many work items: evaluates its share of the ids and posts the
// results back. Each worker opens the repository itself, so only ids and results cross threads.
import { parentPort, workerData } from 'node:worker_threads';
import { toReportInput, type ReportInput } from '@the-loop/core';
import { artifactCache } from './cache/artifact-cache.js';
import { evaluateFromDisk } from './gate/evaluate.js';
import { loadRepo } from './workspace/repo.js';

interface Task {
  readonly root: string;
  readonly ids: readonly string[];
  /** Whether the report reads through the artifact cache. */
  readonly cache: boolean;
}

// Results go back a batch at a time, so a worker never holds its whole share.
const BATCH = 200;

async function evaluateShare(task: Task): Promise<void> {
  const opened = await loadRepo(task.root);
  const repo = task.cache ? { ...opened, cache: artifactCache(task.root) } : opened;
  let results: ReportInput[] = [];
  for (const id of task.ids) {
    results.push(toReportInput(await evaluateFromDisk(repo, id)));
    if (results.length === BATCH) {
      parentPort?.postMessage({ results, done: false });
      results = [];
    }
  }
  parentPort?.postMessage({ results, done: true });
}

void evaluateShare(workerData as Task);
