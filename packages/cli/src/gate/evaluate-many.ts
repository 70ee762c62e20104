import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { countItem, emptyTotals, mergeTotals, toReportInput, type ReportTotals } from '@the-loop/core';
import { evaluateFromDisk } from './evaluate.js';
import { mapLimit } from '../workspace/map-limit.js';
import { artifactNames } from '../workspace/read-work-item.js';
import type { Repo } from '../workspace/repo.js';

/** What evaluating some work items in order leaves: their totals, and how many of them are complete. */
export interface ChunkTotals {
  readonly totals: ReportTotals;
  readonly complete: number;
}

/** The report over many work items, without its items: those are in `files`, in order, one JSON line each. */
export interface SpooledReport extends ChunkTotals {
  readonly files: readonly string[];
}

/** A chunk of work items for a worker thread, and where its items go. */
export interface ChunkTask {
  readonly chunk: number;
  readonly ids: readonly string[];
  readonly file: string;
}

// Evaluation left, estimated from the second chunk, above which worker threads start: a worker
// takes about 60 ms to start and warm up, more on a loaded machine, and a warm cache makes an
// item cost about 2 ms.
const WORKER_WORTH_MS = 250;

/**
 * Evaluate every work item for the report, in id order, a chunk at a time: each chunk's items
 * are written as JSON lines to a file of its own in `spool`, and only the totals are kept, so
 * memory stays flat whatever the number of items. When the second chunk shows that the rest
 * would take long (Markdown parsing is CPU-bound: a cold cache), worker threads start and take
 * chunks as they come free. `workerUrl` is the bundled worker entry, absent when running from
 * source.
 */
export async function evaluateForReport(repo: Repo, ids: readonly string[], workerUrl: URL | undefined, spool: string): Promise<SpooledReport> {
  const threads = Math.min(availableParallelism(), 4);
  const size = Math.min(64, Math.max(2, Math.ceil(ids.length / (8 * threads))));
  const chunks: string[][] = [];
  for (let at = 0; at < ids.length; at += size) chunks.push(ids.slice(at, at + size));
  const files = chunks.map((_, chunk) => join(spool, `${chunk}.jsonl`));
  const parts: ChunkTotals[] = [];
  let next = 0;
  const take = (): ChunkTask | undefined => {
    if (next >= chunks.length) return undefined;
    const chunk = next;
    next += 1;
    return { chunk, ids: chunks[chunk] as string[], file: files[chunk] as string };
  };

  const workers: Promise<void>[] = [];
  let warmedUp = 0;
  for (let task = take(); task; task = take()) {
    parts[task.chunk] = await evaluateChunk(repo, task);
    // The first chunk pays for warming up; the second says what an item costs from then on.
    if (task.chunk === 0) warmedUp = performance.now();
    else if (task.chunk === 1 && workerUrl && threads > 1) {
      const perItem = (performance.now() - warmedUp) / task.ids.length;
      const left = perItem * (ids.length - (chunks[0]?.length ?? 0) - task.ids.length);
      if (left > WORKER_WORTH_MS) {
        for (let i = 1; i < threads; i += 1) workers.push(runWorker(workerUrl, repo, take, (chunk, totals) => (parts[chunk] = totals)));
      }
    }
  }
  await Promise.all(workers);

  const totals = emptyTotals(repo.config.specDir, artifactNames(repo.config));
  let complete = 0;
  for (const part of parts) {
    mergeTotals(totals, part.totals);
    complete += part.complete;
  }
  return { totals, complete, files };
}

/** Evaluate a chunk of work items in order, write their report items to the chunk's file, and give their totals. */
export async function evaluateChunk(repo: Repo, task: ChunkTask): Promise<ChunkTotals> {
  const totals = emptyTotals(repo.config.specDir, artifactNames(repo.config));
  // Eight at a time: enough to overlap reading with parsing, which is CPU-bound; each item in
  // flight holds its texts and trees, and 32 of them took 80 MB more at 10,000 items.
  const results = await mapLimit(task.ids, 8, async (id) => toReportInput(await evaluateFromDisk(repo, id)));
  const lines = results.map((result) => `${JSON.stringify(countItem(totals, result))}\n`);
  writeFileSync(task.file, lines.join(''));
  return { totals, complete: results.filter((result) => result.ok).length };
}

/** A worker thread taking chunks until there are none left; it settles once the worker is done. */
function runWorker(url: URL, repo: Repo, take: () => ChunkTask | undefined, done: (chunk: number, totals: ChunkTotals) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // Loaded only when workers start: a small or cached report never pays for it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(url, { workerData: { root: repo.root, cache: repo.cache !== undefined } });
    let working: number | undefined;
    const give = (): void => {
      const task = take();
      working = task?.chunk;
      worker.postMessage(task ?? { done: true });
    };
    worker.on('message', (message: { ready: true } | { chunk: number; totals: ChunkTotals }) => {
      if ('chunk' in message) done(message.chunk, message.totals);
      give();
    });
    worker.once('error', reject);
    // A worker that ends while it holds a chunk would leave a gap in the report: that fails it.
    worker.once('exit', (code) => (working === undefined && code === 0 ? resolve() : reject(new Error(`a report worker exited with code ${code} before finishing its work`))));
  });
}
