import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { BASELINE_FILE, baselineCounts, parseBaseline, serializeBaseline, type Baseline, type BaselineCounts } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { sha256 } from './digest.js';
import { readRepositoryBytes, repositoryText } from './read-file.js';
import type { Repo } from './repo.js';

/** The baseline file as read: its text, and the baseline it holds. */
export interface BaselineFile {
  readonly text: string;
  readonly baseline: Baseline;
}

const cache = new WeakMap<Repo, Promise<BaselineFile | undefined>>();
const counted = new WeakMap<Repo, Promise<BaselineCounts | undefined>>();
const bytesRead = new WeakMap<Repo, Promise<{ bytes: Buffer; digest: string } | undefined>>();

/** The repository's baseline file, read once per command; undefined when it has none. A broken file is exit 2 with its lines. */
export function loadBaselineFile(repo: Repo): Promise<BaselineFile | undefined> {
  let loaded = cache.get(repo);
  if (!loaded) {
    loaded = readBaseline(repo);
    cache.set(repo, loaded);
  }
  return loaded;
}

/** The repository's baseline, as {@link loadBaselineFile} reads it. */
export async function loadBaseline(repo: Repo): Promise<Baseline | undefined> {
  return (await loadBaselineFile(repo))?.baseline;
}

/**
 * What applying the repository's baseline reads of it (its counts), worked out once per command:
 * every work item of a run is marked through them, and neither the text nor the entries are kept
 * for that unless the command read them whole anyway. A broken file is exit 2, as
 * {@link loadBaselineFile} has it.
 */
export function loadBaselineCounts(repo: Repo): Promise<BaselineCounts | undefined> {
  let loaded = counted.get(repo);
  if (!loaded) {
    loaded = (cache.get(repo) ?? readBaseline(repo)).then((file) => file && baselineCounts(file.baseline));
    counted.set(repo, loaded);
  }
  return loaded;
}

/** Counts the command's first thread read (a report's worker threads are given them), so this thread does not read the file again. */
export function useBaselineCounts(repo: Repo, counts: BaselineCounts | undefined): void {
  counted.set(repo, Promise.resolve(counts));
}

/** Whether the command has read the baseline's counts (or is reading them) whole. */
export function baselineCountsRead(repo: Repo): boolean {
  return counted.has(repo);
}

/** The SHA-256 of the baseline file's bytes, read once per command; undefined when there is none. */
export async function baselineDigest(repo: Repo): Promise<string | undefined> {
  return (await baselineBytes(repo))?.digest;
}

function baselineBytes(repo: Repo): Promise<{ bytes: Buffer; digest: string } | undefined> {
  let read = bytesRead.get(repo);
  if (!read) {
    read = baselineFileBytes(repo).then((bytes) => bytes && { bytes, digest: sha256(bytes) });
    bytesRead.set(repo, read);
  }
  return read;
}

function baselineFileBytes(repo: Repo): Promise<Buffer | undefined> {
  return readRepositoryBytes(join(repo.root, BASELINE_FILE), BASELINE_FILE, { within: repo.root, maxBytes: READ_LIMITS.baseline });
}

function readBaseline(repo: Repo): Promise<BaselineFile | undefined> {
  // The bytes a command hashed are the bytes it parses; a command that never hashed them reads them once, unkept.
  const read = bytesRead.get(repo)?.then((kept) => kept?.bytes) ?? baselineFileBytes(repo);
  return read.then((bytes) => {
    if (bytes === undefined) return undefined;
    const decoded = repositoryText(bytes, BASELINE_FILE);
    return { text: decoded, baseline: parsed(decoded) };
  });
}

/** A baseline's text as read from somewhere (the working tree, a commit), parsed or exit 2. */
export function parsed(text: string, shown = BASELINE_FILE): Baseline {
  const result = parseBaseline(shown, text);
  if (!result.ok) throw configurationError(`${shown} is invalid (rewrite it with \`the-loop baseline --update\`)`, result.issues);
  return result.baseline;
}

/** Write the baseline atomically; the returned text is what was written. */
export async function saveBaseline(repo: Repo, baseline: Baseline): Promise<string> {
  const text = serializeBaseline(baseline);
  const path = join(repo.root, BASELINE_FILE);
  await fs.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text);
  cache.set(repo, Promise.resolve({ text, baseline }));
  counted.delete(repo);
  bytesRead.delete(repo);
  return text;
}
