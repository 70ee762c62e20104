import { join } from 'node:path';
import { extractFacts, FACTS_JSON_FORMAT, factsFromJson, factsToJson, PARSER_VERSION, partsReadFromBytes, type ArtifactFacts } from '@the-loop/core';
import { LOCAL_DIR } from '../state/local-state.js';
import { bucketStore } from './buckets.js';
import { resultCache } from './result-cache.js';
import type { ArtifactCache, LoadOptions, Repo } from '../workspace/repo.js';
import { configCache } from './config-cache.js';

/** Where the facts read from artifacts are kept, under the machine-local directory. */
export const CACHE_DIR = `${LOCAL_DIR}/cache/artifacts`;

// Entries sit in 256 buckets named by the digest's first two hex digits. A bucket keeps at most
// this many bytes; past it the oldest entries go. So the cache never grows past 256 MiB. Entries
// are plain JSON lines, about four times the Markdown they describe: a warm run parses only the
// lines it reads (decision 147), and inflating them cost more than their size saved (decision 064).
const BUCKET_BYTES = 1024 * 1024;
// Facts larger than this (an artifact over about 130 KB) are read afresh every time rather than kept.
const ENTRY_BYTES = 512 * 1024;
// What the cache writes: entries, and the temporary files they are written through.
const OWN_FILE = /^(?:[0-9a-f]{64}\.v\d+(?:\.f\d+)?\.json(?:\.gz)?|\.[0-9a-f]{64}\.v\d+(?:\.f\d+)?\.json(?:\.gz)?\.\d+\.[0-9a-f]+\.tmp)$/;

/**
 * The content-addressed cache of artifact facts in `.the-loop/local/cache/artifacts/`: keyed by
 * the SHA-256 of the bytes and the parser version, each entry written whole or not at all. An
 * entry that cannot be read, is corrupt, or was written for other bytes or another parser is
 * ignored and written again. The cache never changes a result, only how fast it comes; any
 * failure to read or write it just means parsing.
 *
 * Facts parsed for want of an entry are written when {@link ArtifactCache.keep} is given them,
 * after the gates: a document's parts are read on first use, and writing every part at once read
 * the parts no gate asks for (decision 198). A part not written is read from the bytes by a later
 * run that asks for it, which writes the entry again with that part.
 */
export function artifactCache(root: string): ArtifactCache {
  const store = bucketStore(root, join(root, CACHE_DIR), { ownFile: OWN_FILE, bucketBytes: BUCKET_BYTES, entryBytes: ENTRY_BYTES });
  // The digest of the bytes of each facts handed out, and whether an entry gave them, until they
  // are kept. Weak: facts a run never keeps (a command that reads and does not evaluate) hold
  // nothing alive.
  const handed = new WeakMap<ArtifactFacts, { readonly digest: string; readonly fromEntry: boolean }>();
  return {
    async facts(digest, text) {
      const bytes = store.read(digest.slice(0, 2), entryName(digest));
      const cached = bytes ? readEntry(bytes, digest, () => extractFacts(text)) : undefined;
      const facts = cached ?? extractFacts(text);
      handed.set(facts, { digest, fromEntry: cached !== undefined });
      return facts;
    },
    async keep(facts) {
      for (const one of facts) {
        const read = handed.get(one);
        if (read === undefined) continue;
        handed.delete(one);
        // An entry is written again only when it lacked a part the gates read.
        if (read.fromEntry && !partsReadFromBytes(one)) continue;
        const { digest } = read;
        const json = factsToJson(one, { onlyRead: true });
        if (json !== undefined) await store.write(digest.slice(0, 2), entryName(digest), Buffer.from(entryOf(digest, json), 'utf8')).catch(() => undefined);
      }
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

// Entries are read synchronously: a small file in the page cache, and a warm report reads one
// per artifact. Only the first line is parsed now; the others are decoded and parsed when their
// part is first read, and `reparse` gives the facts when one of them turns out corrupt. Anything
// that cannot be parsed is no entry, and is written again.
function readEntry(bytes: Buffer, digest: string, reparse: () => ArtifactFacts): ArtifactFacts | undefined {
  try {
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

/**
 * Whether a run reads and keeps the caches under the machine-local directory: not with
 * `--no-cache`, nor in CI (`CI` set, as every CI service sets it): a CI run starts clean, and must
 * trust nothing left on disk before it.
 */
function cachesAllowed(env: NodeJS.ProcessEnv, noCache = false): boolean {
  const ci = env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0';
  return !noCache && !ci;
}

/**
 * A repository opened with every cache a run may use, when {@link cachesAllowed}: its
 * configuration read through the configuration cache (`open` is given the options for
 * `openRepo` or `loadRepo`), then the artifact and result caches attached. One decision for all of
 * them, so no command uses one cache and not another.
 */
export async function openCached(open: (options: LoadOptions) => Promise<Repo>, env: NodeJS.ProcessEnv, noCache = false): Promise<Repo> {
  return withCache(await open(cachesAllowed(env, noCache) ? { configCache } : {}), env, noCache);
}

/** The repository's artifact cache, when {@link cachesAllowed}. */
export function cacheFor(root: string, env: NodeJS.ProcessEnv, noCache: boolean): ArtifactCache | undefined {
  return cachesAllowed(env, noCache) ? artifactCache(root) : undefined;
}

/**
 * The repository with its artifact cache and the result cache beside it (`report`, `check` and
 * the harness hooks), unless {@link cacheFor} says not to use one.
 */
export function withCache(repo: Repo, env: NodeJS.ProcessEnv, noCache = false): Repo {
  const cache = cacheFor(repo.root, env, noCache);
  return cache ? { ...repo, cache, results: resultCache(repo.root) } : repo;
}
