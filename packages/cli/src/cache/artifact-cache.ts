import { randomBytes } from 'node:crypto';
import { lstatSync, promises as fs, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { extractFacts, FACTS_JSON_FORMAT, factsFromJson, factsToJson, PARSER_VERSION, type ArtifactFacts } from '@the-loop/core';
import { LOCAL_DIR, localDir } from '../state/local-state.js';
import { escapes, readRecordSync } from '../workspace/read-file.js';
import type { ArtifactCache, Repo } from '../workspace/repo.js';

/** Where the facts read from artifacts are kept, under the machine-local directory. */
export const CACHE_DIR = `${LOCAL_DIR}/cache/artifacts`;

// Entries sit in 256 buckets named by the digest's first two hex digits. A bucket keeps at most
// this many bytes; past it the oldest entries go. So the cache never grows past 256 MiB. Entries
// are plain JSON lines, about four times the Markdown they describe: a warm run parses only the
// lines it reads (decision 147), and inflating them cost more than their size saved (decision 064).
const BUCKET_BYTES = 1024 * 1024;
// Facts larger than this (an artifact over about 130 KB) are read afresh every time rather than kept.
const ENTRY_BYTES = 512 * 1024;

/**
 * The content-addressed cache of artifact facts in `.the-loop/local/cache/artifacts/`: keyed by
 * the SHA-256 of the bytes and the parser version, each entry written whole or not at all. An
 * entry that cannot be read, is corrupt, or was written for other bytes or another parser is
 * ignored and written again. The cache never changes a result, only how fast it comes; any
 * failure to read or write it just means parsing.
 */
export function artifactCache(root: string): ArtifactCache {
  const dir = join(root, CACHE_DIR);
  const buckets = new Map<string, Promise<Bucket>>();
  // Whether a bucket folder really lies inside the repository, checked once a process: the cache
  // folder resolved once, then each bucket must be a folder of its own in it, not a link.
  let base: Promise<boolean> | undefined;
  const inside = new Map<string, Promise<boolean>>();
  const insideBucket = async (bucket: string): Promise<boolean> => {
    base ??= insideRepository(root, dir);
    let checked = inside.get(bucket);
    if (!checked) {
      // Synchronous, as the entries are read: a warm run touches a bucket for most of its entries.
      checked = base.then((ok) => ok && lstatSync(join(dir, bucket)).isDirectory()).catch(() => false);
      inside.set(bucket, checked);
    }
    if (await checked) return true;
    // A folder not there yet (or not inside) is asked again next time: this run may create it.
    inside.delete(bucket);
    if (!(await base)) base = undefined;
    return false;
  };
  let ready: Promise<unknown> | undefined;
  return {
    async facts(digest, text) {
      const name = entryName(digest);
      const bucket = digest.slice(0, 2);
      const cached = (await insideBucket(bucket)) ? readEntry(join(dir, bucket, name), digest, () => extractFacts(text)) : undefined;
      if (cached) return cached;
      const facts = extractFacts(text);
      const json = factsToJson(facts);
      if (json !== undefined) {
        // Machine-local state: the directory is created ignored by git, once per process.
        ready ??= localDir(root);
        await ready
          .then(() => writeEntry(root, dir, bucket, name, entryOf(digest, json), buckets))
          .catch(() => undefined);
      }
      return facts;
    },
  };
}

/** The file an artifact's facts are kept in: named by the digest of its bytes, the parser and the form of the JSON. */
export function entryName(digest: string): string {
  return `${digest}.v${PARSER_VERSION}.f${FACTS_JSON_FORMAT}.json`;
}

// The facts' head inside the entry's first line, the rest of their lines after it.
function entryOf(digest: string, [head, ...parts]: readonly string[]): string {
  return [`{"parser":${PARSER_VERSION},"format":${FACTS_JSON_FORMAT},"digest":"${digest}","facts":${head}}`, ...parts].join('\n');
}

// Read synchronously: an entry is a small file in the page cache, and a warm report reads one
// per artifact, where each asynchronous open, stat, read and close is a round trip of its own.
// Only the first line is parsed now; the others are decoded and parsed when their part is first
// read, and `reparse` gives the facts when one of them turns out corrupt.
function readEntry(path: string, digest: string, reparse: () => ArtifactFacts): ArtifactFacts | undefined {
  // The directory is the repository's, so hostile: read through the bounded reader (no link
  // followed, a FIFO never waited on, only a regular file of an entry's size) in a bucket folder
  // checked to lie inside the repository; anything that cannot be read or parsed is no entry,
  // and is written again.
  try {
    const bytes = readRecordSync(path, ENTRY_BYTES);
    if (bytes === undefined) return undefined;
    const ends = lineEnds(bytes);
    const entry = JSON.parse(bytes.toString('utf8', 0, ends[0])) as { parser?: unknown; format?: unknown; digest?: unknown; facts?: unknown };
    if (entry.parser !== PARSER_VERSION || entry.format !== FACTS_JSON_FORMAT || entry.digest !== digest) return undefined;
    const part = (index: number): string => bytes.toString('utf8', (ends[index] as number) + 1, ends[index + 1]);
    return factsFromJson({ head: entry.facts, parts: ends.length - 1, part }, reparse);
  } catch {
    return undefined;
  }
}

/** Where each line of an entry ends: at a line feed, the last at the end of the bytes. */
function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at);
  ends.push(bytes.length);
  return ends;
}

async function insideRepository(root: string, dir: string): Promise<boolean> {
  try {
    return !escapes(realpathSync.native(root), realpathSync.native(dir));
  } catch {
    return false;
  }
}

interface Bucket {
  readonly dir: string;
  readonly entries: { name: string; size: number; at: number }[];
  bytes: number;
}

async function writeEntry(root: string, dir: string, bucketName: string, name: string, entry: string, buckets: Map<string, Promise<Bucket>>): Promise<void> {
  const data = Buffer.from(entry, 'utf8');
  if (data.length > ENTRY_BYTES) return;
  let opened = buckets.get(bucketName);
  if (!opened) {
    opened = openBucket(root, join(dir, bucketName));
    buckets.set(bucketName, opened);
  }
  const bucket = await opened;
  // Written beside the entry, then renamed over it: a reader sees the old entry or the new one.
  const temp = join(bucket.dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, data, { flag: 'wx' });
    await fs.rename(temp, join(bucket.dir, name));
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  bucket.entries.push({ name, size: data.length, at: Date.now() });
  bucket.bytes += data.length;
  if (bucket.bytes > BUCKET_BYTES) await prune(bucket);
}

// What the cache writes: entries, and the temporary files they are written through. Nothing
// else in a bucket is counted or ever removed.
const OWN_FILE = /^(?:[0-9a-f]{64}\.v\d+(?:\.f\d+)?\.json(?:\.gz)?|\.[0-9a-f]{64}\.v\d+(?:\.f\d+)?\.json(?:\.gz)?\.\d+\.[0-9a-f]+\.tmp)$/;

async function openBucket(root: string, dir: string): Promise<Bucket> {
  await fs.mkdir(dir, { recursive: true });
  // A bucket replaced by a symbolic link (to a directory whose files pruning would remove) is
  // refused, and so is one reached through a linked folder out of the repository.
  if (!(await fs.lstat(dir)).isDirectory()) throw new Error(`${dir} is not a directory`);
  if (!(await insideRepository(root, dir))) throw new Error(`${dir} leads out of the repository`);
  const entries = await Promise.all(
    (await fs.readdir(dir))
      .filter((name) => OWN_FILE.test(name))
      .map(async (name) => {
        const info = await fs.lstat(join(dir, name)).catch(() => undefined);
        return { name, size: info?.size ?? 0, at: info?.mtimeMs ?? 0 };
      }),
  );
  return { dir, entries, bytes: entries.reduce((sum, entry) => sum + entry.size, 0) };
}

/** Drop the oldest entries (other parser versions' among them) down to three quarters of the bound. */
async function prune(bucket: Bucket): Promise<void> {
  bucket.entries.sort((a, b) => a.at - b.at);
  while (bucket.bytes > (BUCKET_BYTES * 3) / 4 && bucket.entries.length > 0) {
    const oldest = bucket.entries.shift() as Bucket['entries'][number];
    bucket.bytes -= oldest.size;
    await fs.rm(join(bucket.dir, oldest.name), { force: true });
  }
}

/**
 * The repository's cache, unless `--no-cache` was given or the run is in CI (`CI` set, as every
 * CI service sets it): a CI run starts clean, and must trust nothing left on disk before it.
 */
export function cacheFor(root: string, env: NodeJS.ProcessEnv, noCache: boolean): ArtifactCache | undefined {
  const ci = env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0';
  return noCache || ci ? undefined : artifactCache(root);
}

/** The repository with its cache attached, unless {@link cacheFor} says not to use one. */
export function withCache(repo: Repo, env: NodeJS.ProcessEnv, noCache = false): Repo {
  const cache = cacheFor(repo.root, env, noCache);
  return cache ? { ...repo, cache } : repo;
}
