import { join } from 'node:path';
import { LOCAL_DIR } from '../state/local-state.js';
import { sha256 } from '../workspace/digest.js';
import { bucketStore } from './buckets.js';

/** Where what was read of a baseline is kept, beside the other caches. */
export const BASELINE_CACHE_DIR = `${LOCAL_DIR}/cache/baseline`;

// The form of an entry and of its key; a change makes every entry another's.
const ENTRY_FORMAT = 1;
// Most entries are a few dozen bytes to a few kilobytes (a file's counts); 256 buckets of 1 MiB.
const BUCKET_BYTES = 1024 * 1024;
const ENTRY_BYTES = 256 * 1024;
const OWN_FILE = /^(?:[0-9a-f]{64}\.json|\.[0-9a-f]{64}\.json\.\d+\.[0-9a-f]+\.tmp)$/;

/**
 * What a command read of the baseline file whose bytes have a given SHA-256, kept for the
 * commands that evaluate one work item on every agent turn (the harness hooks, `check <id>`):
 *
 * - that the file parsed and fits its shape, and the counts applying it reads for findings on
 *   each file asked about (an empty list for a file it holds nothing for), so such a command
 *   hashes the file and reads a few entries instead of parsing it whole;
 * - that git said it was the baseline committed at a commit, so a hook that honours the committed
 *   baseline need not start git while HEAD and the file stay as they were.
 *
 * Only what a full reading or git's answer gave is kept, and an entry is only read for the keys
 * it was written under: it never changes a result. CI, which trusts nothing left on disk, keeps
 * none. An agent that could forge an entry could as well edit or commit the baseline, which
 * `check`, `pre-push` and CI judge from the file and from git.
 */
export interface BaselineCache {
  /** The counts kept for findings on `file`, or undefined when none were kept (then read the file whole). */
  countsFor(digest: string, file: string): [string, number][] | undefined;
  /** Whether the file with `digest` was read whole and found a baseline. */
  parsed(digest: string): boolean;
  /** Keep that the file parsed, and the counts for each file given. A failure to write is no failure of the run. */
  keep(digest: string, byFile: ReadonlyMap<string, [string, number][]>): Promise<void>;
  /** Whether git said the baseline with `digest` was the one committed at `commit`. */
  committedAt(commit: string, digest: string): boolean;
  /** Note that git said so. */
  noteCommitted(commit: string, digest: string): Promise<void>;
}

export function baselineCache(root: string): BaselineCache {
  const store = bucketStore(root, join(root, BASELINE_CACHE_DIR), { ownFile: OWN_FILE, bucketBytes: BUCKET_BYTES, entryBytes: ENTRY_BYTES });
  const keyOf = (...parts: string[]): string => sha256([ENTRY_FORMAT, ...parts].join('\n'));
  const read = (key: string): unknown => {
    const bytes = store.read(key.slice(0, 2), `${key}.json`);
    if (bytes === undefined) return undefined;
    try {
      const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; value?: unknown };
      return entry.key === key ? entry.value : undefined;
    } catch {
      return undefined;
    }
  };
  const write = (key: string, value: unknown): Promise<void> => store.write(key.slice(0, 2), `${key}.json`, Buffer.from(JSON.stringify({ key, value }), 'utf8')).catch(() => undefined);
  return {
    countsFor(digest, file) {
      const value = read(keyOf('counts', digest, file));
      return isCounts(value) ? value : undefined;
    },
    parsed: (digest) => read(keyOf('parsed', digest)) === true,
    async keep(digest, byFile) {
      await Promise.all([...byFile].map(([file, counts]) => write(keyOf('counts', digest, file), counts)));
      await write(keyOf('parsed', digest), true);
    },
    committedAt: (commit, digest) => read(keyOf('committed', commit, digest)) === true,
    noteCommitted: (commit, digest) => write(keyOf('committed', commit, digest), true),
  };
}

// A list of [key, count], each count a whole number of at least 1: the shape `keep` writes under the entry's own key.
function isCounts(value: unknown): value is [string, number][] {
  return Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && Number.isInteger(pair[1]) && (pair[1] as number) >= 1);
}
