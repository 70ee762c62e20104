// Worker thread for `report` over many work items: evaluates its share of the ids and posts the
// results back. Each worker opens the repository itself, so only ids and results cross threads.
import { parentPort, workerData } from 'node:worker_threads';
import { toReportInput, type ReportInput } from '@the-loop/core';
import { evaluateFromDisk } from './gate/evaluate.js';
import { openRepo } from './workspace/repo.js';

interface Task {
  readonly root: string;
  readonly ids: readonly string[];
}

async function evaluateShare(task: Task): Promise<ReportInput[]> {
  const repo = await openRepo(task.root, undefined);
  const results: ReportInput[] = [];
  for (const id of task.ids) results.push(toReportInput(await evaluateFromDisk(repo, id)));
  return results;
}

void evaluateShare(workerData as Task).then((results) => parentPort?.postMessage(results));
