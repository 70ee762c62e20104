import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/** The directory of the bundled CLI (`dist/`), or undefined when running from source. */
export function bundleDir(): string | undefined {
  // The launcher runs the CommonJS bundle with `__filename` set to the bundle's path.
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? dirname(__filename) : undefined;
}

let codeCache: string | undefined;

/**
 * The launcher (or a worker thread's entry) tells which V8 code cache this run's bundle was
 * compiled through: its worker threads read the same, and the libraries beside the bundle read
 * caches of the same kind (their file's name, and the same ending as the bundle's cache).
 */
export function useCodeCache(file: string): void {
  codeCache = file;
}

// The libraries beside the bundle this run has loaded: the compiled script, its code cache's
// file, and whether that cache was read and accepted.
const chunks = new Map<string, { readonly exports: unknown; readonly script: Script; readonly cacheFile: string | undefined; readonly cached: boolean }>();

/**
 * A library built into a file of its own beside the bundle (`CHUNKS` in scripts/cli-bundle.mjs),
 * compiled the first time a run calls it, through a V8 code cache of the same kind as the
 * bundle's: the exports of its module. Its file is the CLI's own, as the bundle is.
 */
export function loadChunk(file: string): unknown {
  const known = chunks.get(file);
  if (known) return known.exports;
  const dir = bundleDir();
  if (dir === undefined) throw new Error(`${file} is part of the bundled CLI only`);
  const path = join(dir, file);
  const bundle = __filename;
  const cacheFile = codeCache?.startsWith(bundle) ? `${path}${codeCache.slice(bundle.length)}` : undefined;
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile === undefined ? undefined : readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // ASCII, as the build leaves it, and one function expression: the module function.
  const { Script: Compiled } = process.getBuiltinModule('node:vm');
  const script = new Compiled(readFileSync(path, 'latin1'), { filename: path, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, path, dir);
  chunks.set(file, { exports: module.exports, script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected });
  return module.exports;
}

let threads = false;

/** A worker thread is about to start: see {@link writesCodeCaches}. */
export function startingThread(): void {
  threads = true;
}

/**
 * Whether this run may write the code caches it lacked, as the launcher and
 * {@link writeChunkCaches} do after it: not once it started a worker thread. A cache holds a hash
 * of V8's flags and is read only under the same, and starting a thread has V8 work the hash out
 * again from flags it has changed: a young generation's growth factor below 2, which the launcher
 * sets for a run over many work items (decision 183), is raised to 2 for the thread's heap. So
 * the threads, and whatever this thread compiles after they start, run without the shipped
 * caches, and a cache written then would be read by no later run: the next run without threads
 * writes it.
 */
export function writesCodeCaches(): boolean {
  return !threads;
}

/**
 * Write the code cache of each library this run loaded without one it could use, as the
 * launcher writes the bundle's: best effort, and atomic. With `all` (the build), every one this
 * run loaded, and a failure is thrown.
 */
export function writeChunkCaches(all: boolean): void {
  if (!writesCodeCaches()) return;
  for (const { script, cacheFile, cached } of chunks.values()) {
    if (cacheFile === undefined || (cached && !all)) continue;
    const temp = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch (error) {
      rmSync(temp, { force: true });
      if (all) throw error;
    }
  }
}

/**
 * The entry of the worker threads of a report or a set's check, beside the bundle, and the V8
 * code cache they compile the bundle through (scripts/cli-bundle.mjs); undefined from source,
 * where they run on one thread.
 */
export function workerEntry(): { readonly file: string; readonly codeCache: string | undefined } | undefined {
  const dir = bundleDir();
  const file = dir && join(dir, 'report-worker.cjs');
  return file && existsSync(file) ? { file, codeCache } : undefined;
}

let identity: string | undefined;

/**
 * Which build of the CLI is running: the bundle's size, inode and modification time (a rebuild
 * or an install writes a new file), or `source` when running from source. What the CLI computed
 * is kept under it, so a build never reads what another wrote.
 */
export function bundleIdentity(): string {
  if (identity === undefined) {
    if (bundleDir() === undefined) identity = 'source';
    else {
      const info = statSync(__filename);
      identity = `${info.size}:${info.ino}:${info.mtimeMs}`;
    }
  }
  return identity;
}
