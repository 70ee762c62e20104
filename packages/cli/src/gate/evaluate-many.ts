import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { toReportInput, type ReportInput } from '@the-loop/core';
import { evaluateFromDisk } from './evaluate.js';
import { mapLimit } from '../workspace/map-limit.js';
import type { Repo } from '../workspace/repo.js';

// Below this many work items a worker's start-up costs more than it saves.
const PARALLEL_THRESHOLD = 400;

/**
 * Evaluate many work items for the report, in order. Large sets are shared between this thread and worker
 * threads (Markdown parsing is CPU-bound); `workerUrl` is the bundled worker entry, absent when
 * running from source.
 */
export async function evaluateMany(repo: Repo, ids: readonly string[], workerUrl: URL | undefined): Promise<ReportInput[]> {
  const threads = Math.min(availableParallelism(), 4);
  if (!workerUrl || ids.length < PARALLEL_THRESHOLD || threads < 2) {
    return mapLimit(ids, 32, async (id) => toReportInput(await evaluateFromDisk(repo, id)));
  }
  const size = Math.ceil(ids.length / threads);
  const shares = Array.from({ length: threads }, (_, i) => ids.slice(i * size, (i + 1) * size));
  const [own, ...others] = shares;
  const remote = others.map((share) => runWorker(workerUrl, repo.root, share, repo.cache !== undefined));
  const local = await mapLimit(own ?? [], 32, async (id) => toReportInput(await evaluateFromDisk(repo, id)));
  return [local, ...(await Promise.all(remote))].flat();
}

function runWorker(url: URL, root: string, ids: readonly string[], cache: boolean): Promise<ReportInput[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: { root, ids, cache } });
    const results: ReportInput[] = [];
    worker.on('message', (batch: { results: ReportInput[]; done: boolean }) => {
      results.push(...batch.results);
      if (batch.done) resolve(results);
    });
    worker.once('error', reject);
    // Results arrive before 'exit', so this only rejects a worker that ended without them: left
    // pending, the promise would let the process drain and exit 0 with no report.
    worker.once('exit', (code) => reject(new Error(code !== 0 ? `a report worker exited with code ${code}` : 'a report worker exited without its results')));
  });
}
