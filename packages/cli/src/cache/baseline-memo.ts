import { join } from 'node:path';
import { LOCAL_DIR } from '../state/local-state.js';
import { sha256 } from '../workspace/digest.js';
import { bucketStore, type BucketStore } from './buckets.js';

/** Where the baselines git found unchanged since a commit are noted, beside the other caches. */
export const BASELINE_MEMO_DIR = `${LOCAL_DIR}/cache/baseline`;

// The form of a note; a change makes every note another's.
const MEMO_FORMAT = 1;
// A note is a few dozen bytes; a bucket keeps the latest few hundred.
const BUCKET_BYTES = 16 * 1024;
const ENTRY_BYTES = 256;
const OWN_FILE = /^(?:[0-9a-f]{64}\.json|\.[0-9a-f]{64}\.json\.\d+\.[0-9a-f]+\.tmp)$/;

/**
 * Notes of what git said: that the baseline whose bytes have a SHA-256 was the one committed at
 * a commit. A harness hook honours the committed baseline on every agent turn; with a note for
 * the commit HEAD names and the bytes in the working tree, it need not start git to learn that
 * nothing changed. Only git's answer is noted, and a note is only read for the same two keys;
 * CI, which trusts nothing left on disk, keeps none. An agent that could forge a note could as
 * well commit the baseline it grew, which `pre-push` and CI refuse either way.
 */
export interface BaselineMemo {
  /** Whether git said the baseline with `digest` was the one committed at `commit`. */
  committedAt(commit: string, digest: string): boolean;
  /** Note that git said so; a failure to write is no failure of the run. */
  noteCommitted(commit: string, digest: string): Promise<void>;
}

export function baselineMemo(root: string): BaselineMemo {
  const store: BucketStore = bucketStore(root, join(root, BASELINE_MEMO_DIR), { ownFile: OWN_FILE, bucketBytes: BUCKET_BYTES, entryBytes: ENTRY_BYTES });
  const keyOf = (commit: string, digest: string): string => sha256(`${MEMO_FORMAT}\n${commit}\n${digest}`);
  return {
    committedAt(commit, digest) {
      const key = keyOf(commit, digest);
      const bytes = store.read(key.slice(0, 2), `${key}.json`);
      return bytes !== undefined && bytes.toString('utf8') === note(key);
    },
    async noteCommitted(commit, digest) {
      const key = keyOf(commit, digest);
      await store.write(key.slice(0, 2), `${key}.json`, Buffer.from(note(key), 'utf8')).catch(() => undefined);
    },
  };
}

function note(key: string): string {
  return JSON.stringify({ key, committed: true });
}
