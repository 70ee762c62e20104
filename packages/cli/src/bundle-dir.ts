import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The directory of the bundled CLI (`dist/`), or undefined when running from source. */
export function bundleDir(): string | undefined {
  // The launcher runs the CommonJS bundle with `__filename` set to the bundle's path.
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? dirname(__filename) : undefined;
}

let codeCache: string | undefined;

/** The launcher tells which V8 code cache this run's bundle was compiled through, for its worker threads to read. */
export function useCodeCache(file: string): void {
  codeCache = file;
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
