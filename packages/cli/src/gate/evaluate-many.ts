import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countItem, emptyTotals, mergeTotals, type BaselineCounts, type BaselineEntry, type ReportTotals } from '@the-loop/core';
import { failsCheck, type FailOn } from '@the-loop/hooks';
import { checkEntry, type CheckStyle } from '../format/check-set.js';
import { rendererOf, type ReportStyle } from '../format/report.js';
import { baselineEntriesFromDisk, evaluateFromDisk, reportItemFromDisk, type EvaluateOptions } from './evaluate.js';
import { startingThread } from '../bundle-dir.js';
import { loadBaselineCounts } from '../workspace/baseline-file.js';
import { forEachInOrder, mapLimit } from '../workspace/map-limit.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
import { artifactNames } from '../workspace/read-work-item.js';
import type { Repo } from '../workspace/repo.js';

/**
 * What evaluating some work items in order leaves: for a report their totals and how many of them
 * are complete, for a check the ids of those that fail, and their text when it is kept in memory
 * (there is no spool); for a baseline each item's entries.
 */
export type ChunkResult = ReportChunk | CheckChunk | BaselineChunk;

interface ReportChunk {
  readonly kind: 'report';
  readonly totals: ReportTotals;
  readonly complete: number;
  readonly text?: string;
}

interface CheckChunk {
  readonly kind: 'check';
  readonly failing: readonly string[];
  readonly text?: string;
}

interface BaselineChunk {
  readonly kind: 'baseline';
  readonly entries: readonly (readonly BaselineEntry[])[];
}

/** What every thread does with a chunk's work items: evaluate them for the report, check them (a set's `check`), or take their baseline entries. */
export type ChunkJob =
  | { readonly kind: 'report'; readonly style: ReportStyle }
  | { readonly kind: 'check'; readonly style: CheckStyle; readonly failOn: FailOn; readonly options: EvaluateOptions }
  | { readonly kind: 'baseline' };

/**
 * A chunk of items' text as it was kept: the text itself, or the UTF-8 bytes read back from the
 * spool, which are copied to the output as they are rather than decoded and encoded again.
 */
export type ChunkText = string | Buffer;

/** The report over many work items: its totals, and its items' text in order, read one chunk at a time. */
export interface SpooledReport {
  readonly totals: ReportTotals;
  readonly complete: number;
  texts(): Generator<ChunkText>;
}

/** A check of a set of work items: how many, which fail (in order), and their results' text in order, read one chunk at a time. */
export interface SpooledChecks {
  readonly count: number;
  readonly failing: readonly string[];
  texts(): Generator<ChunkText>;
}

/**
 * Up to this many work items, a report (or a check of a set of them) keeps its items' text in
 * memory: they take a few megabytes, and writing them to a spool and reading them back cost more
 * than the rest of a warm report's own work. Above it, the spool keeps memory flat whatever the
 * number of items.
 */
export const IN_MEMORY_ITEMS = 128;

/**
 * The work of a report (or a set's check) shared between threads: the chunks of ids in order,
 * the folder their text is written to (chunk `n` to `n.txt`; none when it is kept in memory),
 * what is done with each work item and how its text is rendered, and a counter in shared memory
 * from which every thread takes the next chunk. Taking needs no other thread, so none waits for
 * a busy one.
 */
export interface SharedChunks {
  readonly chunks: readonly (readonly string[])[];
  readonly spool: string | undefined;
  readonly job: ChunkJob;
  readonly next: Int32Array;
}

// Evaluation left, estimated after the first chunks, above which worker threads start. A worker
// takes about 50 ms to start and then warms up on its own (V8 optimises the parser again in each
// thread), so it pays off only when this thread would otherwise work on for a while; a warm
// cache makes an item cost about 2 ms, a cold one 5 to 20 ms.
const WORKER_WORTH_MS = 500;
// The first chunk (one item) warms this thread up; the second (three) says what an item costs.
const PROBE = [1, 3];
// Below this many work items a worker never pays: it starts and warms up in about the time the
// items take on this thread alone (34 real-sized items, cold: 0.3 s with a worker or without). From
// it on, a report without a cache, which parses every item (4 ms or more each once a thread is
// warm), starts its workers before the first chunk rather than after the probe, so that they
// warm up while this thread does.
const WORKER_ITEMS = 96;

/**
 * Evaluate every work item for the report, in id order, a chunk at a time: each chunk's items
 * are written as JSON lines to a file of its own in `spool`, and only the totals are kept, so
 * memory stays flat whatever the number of items; with no `spool` (a report of at most
 * `IN_MEMORY_ITEMS`), the items are kept. Over `WORKER_ITEMS` or more, worker threads take
 * chunks beside this thread: at once when there is no cache (every item is parsed, and Markdown
 * parsing is CPU-bound), else when the first, small chunks show that the rest would take long (a
 * cold cache). `worker` is how a worker thread starts, absent when running from source.
 */
export async function evaluateForReport(repo: Repo, ids: readonly string[], worker: WorkerEntry | undefined, spool: string | undefined, style: ReportStyle): Promise<SpooledReport> {
  const { shared, parts: all } = await evaluateInChunks(repo, ids, worker, spool, { kind: 'report', style });
  const parts = partsOf(all, 'report');
  const totals = emptyTotals(repo.config.specDir, artifactNames(repo.config));
  let complete = 0;
  for (const part of parts) {
    mergeTotals(totals, part.totals);
    complete += part.complete;
  }
  return { totals, complete, texts: () => chunkTexts(shared, parts) };
}

/**
 * Check every work item of a set, in id order, a chunk at a time, as the report evaluates them
 * (spooled past `IN_MEMORY_ITEMS`, shared with worker threads from `WORKER_ITEMS`): each result
 * is rendered in `style` where it was evaluated and let go; only the failing ids are kept.
 */
export async function checkForSet(repo: Repo, ids: readonly string[], worker: WorkerEntry | undefined, spool: string | undefined, style: CheckStyle, failOn: FailOn, options: EvaluateOptions): Promise<SpooledChecks> {
  const { shared, parts: all } = await evaluateInChunks(repo, ids, worker, spool, { kind: 'check', style, failOn, options });
  const parts = partsOf(all, 'check');
  const failing: string[] = [];
  for (const part of parts) failing.push(...part.failing);
  return { count: ids.length, failing, texts: () => chunkTexts(shared, parts) };
}

/**
 * Every work item's baseline entries (today's findings), in id order, evaluated as a report's
 * items are (shared with worker threads when they pay). Only the entries are kept: the baseline
 * file holds them all.
 */
export async function baselineForSet(repo: Repo, ids: readonly string[], worker: WorkerEntry | undefined): Promise<(readonly BaselineEntry[])[]> {
  const { parts } = await evaluateInChunks(repo, ids, worker, undefined, { kind: 'baseline' });
  return partsOf(parts, 'baseline').flatMap((part) => part.entries);
}

// The chunks' results, each checked to be of the kind of job that was asked for.
function partsOf<K extends ChunkResult['kind']>(parts: readonly ChunkResult[], kind: K): Extract<ChunkResult, { kind: K }>[] {
  return parts.map((part) => {
    if (part.kind !== kind) throw new Error(`a ${kind} chunk was evaluated for a ${part.kind}`);
    return part as Extract<ChunkResult, { kind: K }>;
  });
}

// Every chunk of `ids` evaluated for `job`, on this thread and on workers when they pay; the
// chunks' results in order, every one of them there.
async function evaluateInChunks(repo: Repo, ids: readonly string[], worker: WorkerEntry | undefined, spool: string | undefined, job: ChunkJob): Promise<{ shared: SharedChunks; parts: ChunkResult[] }> {
  // Fewer items than a worker pays for need no count of processors (nor the module that gives it).
  const threads = ids.length < WORKER_ITEMS ? 1 : Math.min(process.getBuiltinModule('node:os').availableParallelism(), 4);
  const shared: SharedChunks = { chunks: chunked(ids, threads), spool, job, next: new Int32Array(new SharedArrayBuffer(4)) };
  const parts: (ChunkResult | undefined)[] = new Array(shared.chunks.length);
  const workers: Promise<void>[] = [];
  const left = (after: number): number => ids.length - PROBE.slice(0, after + 1).reduce((sum, n) => sum + n, 0);
  const canStart = worker !== undefined && threads >= 2;
  // Read here once for every thread: a worker that parsed the baseline again held the whole file
  // beside its counts (about 60 MB near its size cap). A baseline's own run applies none.
  const accepted = canStart && job.kind !== 'baseline' ? { counts: await loadBaselineCounts(repo) } : undefined;
  const startWorkers = (): void => {
    if (!canStart) return;
    for (let i = 1; i < threads; i += 1) {
      const running = runWorker(worker, repo, shared, accepted, (at, totals) => (parts[at] = totals));
      // Awaited below, once this thread has no chunk left; a failure before then is kept until then.
      running.catch(() => undefined);
      workers.push(running);
    }
  };
  const cold = repo.cache === undefined;
  if (cold && ids.length >= WORKER_ITEMS) startWorkers();
  for (let chunk = takeChunk(shared); chunk !== undefined; chunk = takeChunk(shared)) {
    // Not `performance.now()`: the global `performance` loads perf_hooks, a dozen modules, on first use.
    const started = process.hrtime.bigint();
    parts[chunk] = await evaluateChunk(repo, shared, chunk);
    // Still warming up, so an overestimate: it only starts workers a little more readily.
    const perItem = Number(process.hrtime.bigint() - started) / 1e6 / (shared.chunks[chunk]?.length ?? 1);
    if (chunk === 1 && !cold && ids.length >= WORKER_ITEMS && perItem * left(chunk) > WORKER_WORTH_MS) startWorkers();
  }
  await Promise.all(workers);

  const finished: ChunkResult[] = [];
  for (const [chunk, part] of parts.entries()) {
    // Never output with a gap: a chunk no thread finished fails the command.
    if (!part) throw new Error(`the ${job.kind}'s chunk ${chunk} was taken by a worker that did not finish it`);
    finished.push(part);
  }
  return { shared, parts: finished };
}

// The text of every chunk's items in order: kept, or read back from the spool a chunk at a time.
function* chunkTexts(shared: SharedChunks, parts: readonly (ReportChunk | CheckChunk)[]): Generator<ChunkText> {
  for (const [chunk, part] of parts.entries()) yield part.text ?? readFileSync(chunkFile(shared, chunk));
}

// Small chunks to measure by, then chunks small enough that the threads finish together (about
// eight a thread) and large enough that taking one costs nothing; the last ones smaller still, so
// that no thread starts a large chunk as the others run out of work.
function chunked(ids: readonly string[], threads: number): string[][] {
  const size = Math.min(32, Math.max(2, Math.ceil(ids.length / (8 * threads))));
  const chunks: string[][] = [];
  let at = 0;
  for (const n of PROBE) {
    if (at < ids.length) chunks.push(ids.slice(at, at + n));
    at += n;
  }
  while (at < ids.length) {
    const n = Math.max(2, Math.min(size, Math.ceil((ids.length - at) / (2 * threads))));
    chunks.push(ids.slice(at, at + n));
    at += n;
  }
  return chunks;
}

/** The next chunk no thread has taken, or undefined when every chunk is taken. */
export function takeChunk(shared: SharedChunks): number | undefined {
  const chunk = Atomics.add(shared.next, 0, 1);
  return chunk < shared.chunks.length ? chunk : undefined;
}

function chunkFile(shared: SharedChunks, chunk: number): string {
  if (shared.spool === undefined) throw new Error(`the report's chunk ${chunk} has neither items nor a spool`);
  return join(shared.spool, `${chunk}.txt`);
}

/**
 * Evaluate a chunk of work items in order, render their entries (in the report, or in the set's
 * check), write that text to the chunk's file (or keep it with no spool), and give their totals
 * (or the ids of those that fail). Rendered here, the items are never serialised to be read back,
 * and the thread that writes the output only copies text. A baseline's chunk gives its items'
 * entries, and no text.
 */
export async function evaluateChunk(repo: Repo, shared: SharedChunks, chunk: number): Promise<ChunkResult> {
  const ids = shared.chunks[chunk] ?? [];
  const { job } = shared;
  if (job.kind === 'baseline') return { kind: 'baseline', entries: await mapLimit(ids, inFlight(repo, job), (id) => baselineEntriesFromDisk(repo, id)) };
  const count = shared.chunks.reduce((sum, chunkIds) => sum + chunkIds.length, 0);
  const first = shared.chunks.slice(0, chunk).reduce((sum, chunkIds) => sum + chunkIds.length, 0);
  let part: ChunkResult;
  // Each item is rendered (and counted) as soon as it is evaluated, in order, and let go.
  const texts: string[] = [];
  if (job.kind === 'check') {
    const failing: string[] = [];
    await forEachInOrder(ids, inFlight(repo, job), (id) => evaluateFromDisk(repo, id, job.options), (result, index) => {
      texts.push(checkEntry(job.style, result, first + index, count, job.failOn));
      if (failsCheck(result, job.failOn)) failing.push(result.workItem);
    });
    part = { kind: 'check', failing };
  } else {
    const totals = emptyTotals(repo.config.specDir, artifactNames(repo.config));
    const renderer = rendererOf(job.style);
    let complete = 0;
    await forEachInOrder(ids, inFlight(repo, job), (id) => reportItemFromDisk(repo, id), (result, index) => {
      texts.push(renderer.item(countItem(totals, result), first + index, count));
      if (result.ok) complete += 1;
    });
    part = { kind: 'report', totals, complete };
  }
  const text = texts.join('');
  if (shared.spool === undefined) return { ...part, text };
  writeFileSync(chunkFile(shared, chunk), text);
  return part;
}

// How many of a chunk's work items are evaluated at once. Eight: reading is synchronous, but a
// cache's writes and a check's git calls are not; each item in flight holds its texts, and 32 of
// them took 80 MB more at 10,000 items. A report or a baseline with neither a cache nor approvals
// read from the forge waits on nothing an item does alone (the evidence's snapshot of the
// repository is taken once for all): one at a time, each item's texts are let go before the next
// is read, and the collector copies less.
function inFlight(repo: Repo, job: ChunkJob): number {
  return job.kind !== 'check' && repo.cache === undefined && loadRuntimeConfig(repo).approvals.source === 'local' ? 1 : 8;
}

/** What starts a worker thread: its entry file, and the V8 code cache its entry compiles the bundle through (bundle-dir.ts). */
export interface WorkerEntry {
  readonly file: string;
  readonly codeCache: string | undefined;
}

/** A worker thread taking chunks until none is left; it settles once the worker has ended, and fails unless it ended cleanly. */
function runWorker(entry: WorkerEntry, repo: Repo, shared: SharedChunks, accepted: { counts: BaselineCounts | undefined } | undefined, done: (chunk: number, totals: ChunkResult) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // Loaded only when workers start: a small or cached report never pays for it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    startingThread();
    // `codeCache` is read by the worker's entry, before the bundle runs (scripts/cli-bundle.mjs).
    const worker = new Worker(entry.file, { workerData: { root: repo.root, cache: repo.cache !== undefined, shared, codeCache: entry.codeCache, accepted } });
    worker.on('message', (message: { chunk: number; totals: ChunkResult }) => done(message.chunk, message.totals));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a ${shared.job.kind} worker exited with code ${code} before finishing its work`))));
  });
}
