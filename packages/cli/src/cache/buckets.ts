import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { localDir } from '../state/local-state.js';
import { tempPathBeside } from '../workspace/atomic-write.js';
import { escapes, lstatOrNone, readRecordSync } from '../workspace/read-file.js';

/** The bounds of a bucketed store: what it owns in a bucket, a bucket's bytes and an entry's. */
export interface BucketBounds {
  /** The names of the store's entries and of the temporary files they are written through; nothing else in a bucket is counted or removed. */
  readonly ownFile: RegExp;
  /** Past this many bytes in a bucket, its oldest entries go. */
  readonly bucketBytes: number;
  /** An entry larger than this is neither written nor read. */
  readonly entryBytes: number;
}

/**
 * Files kept under a folder of the machine-local directory, in buckets named by the first two
 * hex digits of a digest: read and written whole, bounded in size. The folder is the
 * repository's, so hostile: an entry is read through the bounded reader (no link followed, a
 * FIFO never waited on, only a regular file of an entry's size) in a bucket checked to lie
 * inside the repository, and anything else reads as no entry.
 */
export interface BucketStore {
  /** An entry's bytes, or undefined when there is none that can be read safely. */
  read(bucket: string, name: string): Buffer | undefined;
  /** Write an entry atomically (a reader sees the old one or the new one); rejects when it cannot. */
  write(bucket: string, name: string, data: Buffer): Promise<void>;
}

// Entries are written with Node's synchronous calls: a run writes a few small files, and the
// promise API (its module) and libuv's threads cost it more than the writes themselves.

interface Bucket {
  readonly dir: string;
  readonly entries: { name: string; size: number; at: number }[];
  bytes: number;
}

export function bucketStore(root: string, dir: string, bounds: BucketBounds): BucketStore {
  const buckets = new Map<string, Bucket>();
  // Whether a bucket folder really lies inside the repository, checked once a process: the store's
  // folder resolved once, then each bucket must be a folder of its own in it, not a link.
  let base: boolean | undefined;
  const inside = new Set<string>();
  const insideBucket = (bucket: string): boolean => {
    if (inside.has(bucket)) return true;
    base ??= insideRepository(root, dir);
    // Synchronous, as the entries are read: a warm run touches a bucket for most of its entries.
    let ok = false;
    try {
      ok = base && lstatSync(join(dir, bucket)).isDirectory();
    } catch {
      ok = false;
    }
    // A folder not there yet (or not inside) is asked again next time: this run may create it.
    if (ok) inside.add(bucket);
    else if (!base) base = undefined;
    return ok;
  };
  let ready: Promise<unknown> | undefined;
  return {
    read(bucket, name) {
      if (!insideBucket(bucket)) return undefined;
      try {
        return readRecordSync(join(dir, bucket, name), bounds.entryBytes);
      } catch {
        return undefined;
      }
    },
    async write(bucketName, name, data) {
      if (data.length > bounds.entryBytes) return;
      // Machine-local state: the directory is created ignored by git, once per process.
      ready ??= localDir(root);
      await ready;
      let bucket = buckets.get(bucketName);
      if (!bucket) {
        bucket = openBucket(root, join(dir, bucketName), bounds);
        buckets.set(bucketName, bucket);
      }
      // Written beside the entry, then renamed over it: a reader sees the old entry or the new one.
      const temp = tempPathBeside(join(bucket.dir, name));
      try {
        writeFileSync(temp, data, { flag: 'wx' });
        renameSync(temp, join(bucket.dir, name));
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
      bucket.entries.push({ name, size: data.length, at: Date.now() });
      bucket.bytes += data.length;
      if (bucket.bytes > bounds.bucketBytes) prune(bucket, bounds);
    },
  };
}

// The folder itself, or the nearest of its parents that exists.
function nearestExisting(dir: string): string {
  for (let at = dir; ; at = dirname(at)) if (lstatSync(at, { throwIfNoEntry: false }) !== undefined || dirname(at) === at) return at;
}

function insideRepository(root: string, dir: string): boolean {
  try {
    return !escapes(realpathSync.native(root), realpathSync.native(dir));
  } catch {
    return false;
  }
}

function openBucket(root: string, dir: string, bounds: BucketBounds): Bucket {
  // Nothing is created through a folder linked out of the repository, not even an empty bucket.
  if (!insideRepository(root, nearestExisting(dir))) throw new Error(`${dir} leads out of the repository`);
  mkdirSync(dir, { recursive: true });
  // A bucket replaced by a symbolic link (to a directory whose files pruning would remove) is
  // refused, and so is one reached through a linked folder out of the repository.
  if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  if (!insideRepository(root, dir)) throw new Error(`${dir} leads out of the repository`);
  const entries = readdirSync(dir)
    .filter((name) => bounds.ownFile.test(name))
    .map((name) => {
      // Gone since it was listed: it counts for nothing.
      const info = lstatOrNone(join(dir, name));
      return { name, size: info?.size ?? 0, at: info?.mtimeMs ?? 0 };
    });
  return { dir, entries, bytes: entries.reduce((sum, entry) => sum + entry.size, 0) };
}

/** Drop the oldest entries (earlier versions' among them) down to three quarters of the bound. */
function prune(bucket: Bucket, bounds: BucketBounds): void {
  bucket.entries.sort((a, b) => a.at - b.at);
  while (bucket.bytes > (bounds.bucketBytes * 3) / 4 && bucket.entries.length > 0) {
    const oldest = bucket.entries.shift() as Bucket['entries'][number];
    bucket.bytes -= oldest.size;
    rmSync(join(bucket.dir, oldest.name), { force: true });
  }
}
