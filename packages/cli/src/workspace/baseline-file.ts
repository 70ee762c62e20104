import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { BASELINE_FILE, baselineCounts, parseBaseline, serializeBaseline, type Baseline, type BaselineCounts } from '@the-loop/core';
import { configurationError, UsageError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { sha256 } from './digest.js';
import { digestIfPresent, readRepositoryBytes, repositoryText } from './read-file.js';
import type { Repo } from './repo.js';

/** The baseline file as read: its text, the baseline it holds, and the SHA-256 of those bytes. */
export interface BaselineFile {
  readonly text: string;
  readonly baseline: Baseline;
  readonly digest: string;
}

// The file read and parsed, once per command (its counts may be all a command keeps of it).
const read = new WeakMap<Repo, Promise<BaselineFile | undefined>>();
const counted = new WeakMap<Repo, Promise<BaselineCounts | undefined>>();
const digested = new WeakMap<Repo, Promise<string | undefined>>();

/** The repository's baseline file, read once per command; undefined when it has none. A broken file is exit 2 with its lines. */
export function loadBaselineFile(repo: Repo): Promise<BaselineFile | undefined> {
  let loaded = read.get(repo);
  if (!loaded) {
    loaded = readBaseline(repo);
    read.set(repo, loaded);
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
    loaded = loadBaselineFile(repo).then((file) => file && baselineCounts(file.baseline));
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

/**
 * The SHA-256 of the baseline file's bytes, taken once per command without keeping them (the
 * file's own when the command read it whole first); undefined when there is none. It finds what
 * a cache holds for the file. What is kept in a cache is kept under the digest of the bytes that
 * were parsed for it (`BaselineFile.digest`): the file may have changed between the two reads.
 */
export function baselineDigest(repo: Repo): Promise<string | undefined> {
  let digest = digested.get(repo);
  if (!digest) {
    const file = read.get(repo);
    digest = file ? file.then((parsedFile) => parsedFile?.digest) : digestRepositoryFile(repo);
    digested.set(repo, digest);
  }
  return digest;
}

const reading = (repo: Repo) => ({ within: repo.root, maxBytes: READ_LIMITS.baseline });

async function digestRepositoryFile(repo: Repo): Promise<string | undefined> {
  try {
    return await digestIfPresent(join(repo.root, BASELINE_FILE), reading(repo));
  } catch (error) {
    throw new UsageError(`cannot read ${BASELINE_FILE}: ${(error as Error).message}`);
  }
}

async function readBaseline(repo: Repo): Promise<BaselineFile | undefined> {
  const bytes = await readRepositoryBytes(join(repo.root, BASELINE_FILE), BASELINE_FILE, reading(repo));
  if (bytes === undefined) return undefined;
  const decoded = repositoryText(bytes, BASELINE_FILE);
  return { text: decoded, baseline: parsed(decoded), digest: sha256(bytes) };
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
  read.set(repo, Promise.resolve({ text, baseline, digest: sha256(text) }));
  counted.delete(repo);
  digested.delete(repo);
  return text;
}
