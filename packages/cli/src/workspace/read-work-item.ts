import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { artifactFromFacts, closest, compareIds, KNOWN_ARTIFACTS, PRESET_NAMES, PRESETS, workItemIdProblem, type ArtifactSource, type HarnessConfig, type PresetName, type WorkItemInput } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';
import { isDirectory } from './is-directory.js';
import { escapes, readBytesIfPresent, type ReadOptions } from './read-file.js';
import { approvalDigest, readFrom, sha256 } from './digest.js';
import type { ArtifactCache, Repo } from './repo.js';

// The Markdown parser slows down super-linearly on some shapes: a single huge line (hundreds of
// thousands of nested brackets or quote markers), or thousands of separate lists (20,000 took
// minutes). No prose line is this long and no spec this many lines, so such a file is refused
// before it can hold a hook for minutes; within both limits the worst known shape parses in
// about three seconds.
export const MAX_LINE_LENGTH = 10_000;
export const MAX_LINES = 10_000;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Every artifact file name the graph or the report knows (the-loop's own names only where its layout is used). */
export function artifactNames(config: Pick<HarnessConfig, 'graph' | 'preset'>): readonly string[] {
  // Asked for by every work item a run reads: worked out once for each configuration.
  let names = namesOf.get(config);
  if (names === undefined) {
    const known = new Set<string>(config.preset === 'the-loop' ? KNOWN_ARTIFACTS : []);
    for (const node of config.graph.nodes) for (const name of node.alternatives) known.add(name);
    names = [...known];
    namesOf.set(config, names);
  }
  return names;
}

const namesOf = new WeakMap<object, readonly string[]>();

/** The work-item folders under the spec root, sorted. Files beside them (an index.md) are not work items. */
export async function listWorkItems(repo: Repo, onSkip?: (folder: string, why: string) => void): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(repo.specRoot, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UsageError(`the spec root ${repo.config.specDir} does not exist in ${repo.root} (${await layoutHint(repo)})`);
    }
    throw new UsageError(`cannot list the spec root ${repo.config.specDir}: ${(error as Error).message}`);
  }
  const dirs: string[] = [];
  const archives = PRESETS[repo.config.preset].archives;
  for (const entry of entries) {
    if (entry.name.startsWith('.') || archives.includes(entry.name)) continue;
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(join(repo.specRoot, entry.name)));
    if (!isDir) continue;
    // A folder whose name is not a work-item id is left out, but never silently.
    const problem = workItemIdProblem(entry.name);
    if (problem) onSkip?.(entry.name, problem);
    else dirs.push(entry.name);
  }
  return dirs.sort(compareIds);
}

// A repository laid out for another tool, with no configuration saying so, is told which preset fits.
async function layoutHint(repo: Repo): Promise<string> {
  const found = repo.config.file === undefined ? await detectLayout(repo.root) : undefined;
  if (found && found !== repo.config.preset) return `${PRESETS[found].marker} is there: run \`the-loop init --preset ${found}\` to read ${PRESETS[found].title}'s layout`;
  return 'run `the-loop init`, or set workflow.specDir in .the-loop/harness-config.yaml';
}

/** The preset whose layout the repository already has (its marker exists), the-loop's first. */
export async function detectLayout(root: string): Promise<PresetName | undefined> {
  for (const name of PRESET_NAMES) if (existsSync(join(root, PRESETS[name].marker))) return name;
  return undefined;
}

/**
 * The work items a command over the whole spec root covers. A folder that is not a work item is
 * named on stderr; none at all is a usage error unless `allowEmpty`: a gate that passes on nothing is broken.
 */
export async function specRootWorkItems(repo: Repo, stderr: NodeJS.WritableStream, allowEmpty: boolean): Promise<string[]> {
  const ids = await listWorkItems(repo, (folder, why) => stderr.write(`the-loop: skipped ${repo.config.specDir}/${folder}: ${why}\n`));
  if (ids.length === 0 && !allowEmpty) {
    throw new UsageError(`the spec root ${repo.config.specDir} holds no work items; a gate that passes on nothing is broken (pass --allow-empty if that is expected)`);
  }
  return ids;
}

/** Validate an id given on the command line and make sure its folder exists. */
export async function resolveWorkItem(repo: Repo, id: string): Promise<void> {
  const problem = workItemIdProblem(id);
  if (problem) throw new UsageError(problem);
  if (!isDirectory(join(repo.specRoot, id))) {
    // A missing spec root is reported as such (listWorkItems throws), not as an unknown id.
    const known = await listWorkItems(repo);
    const guess = closest(id, known);
    const hint = guess ? ` Did you mean "${guess}"?` : known.length > 0 ? ` Known work items: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}.` : '';
    throw new UsageError(`no work item "${id}" under ${repo.config.specDir}.${hint}`);
  }
}

/**
 * What a work item's folder held when it was listed: each name, and whether it was a regular file
 * then; or why it could not be listed. One listing serves every file a run reads there, so a name
 * it does not hold (no graph state, no evidence folder: most work items) costs no system call.
 */
export type FolderListing = { readonly names: ReadonlyMap<string, boolean> } | { readonly unlisted: string };

/** List a work item's folder. Synchronous, as the bounded reader's calls are: a report lists every item's folder. */
export function listFolder(repo: Repo, id: string): FolderListing {
  try {
    return { names: new Map(readdirSync(join(repo.specRoot, id), { withFileTypes: true }).map((entry) => [entry.name, entry.isFile()])) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unlisted: code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message };
  }
}

/** Whether the listing holds `name`; undefined when the folder could not be listed, which says nothing. */
export function listedHas(listing: FolderListing, name: string): boolean | undefined {
  return 'names' in listing ? listing.names.has(name) : undefined;
}

/**
 * Read a work item's artifact files through the one bounded reader. A file that cannot be read
 * (a FIFO, a device, a link out of the repository, too large) becomes an `unreadable` entry,
 * never a pass; so does every artifact of a folder that cannot be listed, never a missing one.
 * With `deferFacts` (and a cache), each file's bytes are read and hashed, and the rest waits for
 * {@link withFacts}: a warm report whose result is kept needs neither the text nor the facts.
 * `listing` is the folder's, when the caller has listed it already.
 */
export async function readWorkItem(repo: Repo, id: string, names: readonly string[], options: { readonly deferFacts?: boolean; readonly listing?: FolderListing } = {}): Promise<WorkItemInput> {
  const dir = join(repo.specRoot, id);
  const shown = `${repo.config.specDir}/${id}`;
  const files = new Map<string, ArtifactSource>();
  const digests = new Map<string, () => string>();
  const listing = options.listing ?? listFolder(repo, id);
  // Nothing can be said about what an unlisted folder holds: every artifact is unreadable, none missing.
  if ('unlisted' in listing) for (const name of names) files.set(name, { unreadable: `its folder ${shown} cannot be listed (${listing.unlisted})` });
  // Each name in the folder, and whether it was a regular file when listed.
  const present = 'names' in listing ? listing.names : new Map<string, boolean>();
  // One check for the folder; each file that is itself a link is checked again by the reader.
  const folderChecked = present.size > 0 && !escapes(realPaths(repo).root, realFolder(repo, id));
  await Promise.all(
    names
      .filter((name) => present.has(name))
      .map(async (name) => {
        const read = await readArtifact(name, join(dir, name), { within: repo.root, maxBytes: READ_LIMITS.artifact, folderChecked, listedAsFile: present.get(name) === true }, repo.cache, options.deferFacts === true);
        if (!read) return;
        files.set(name, read.source);
        if (read.approvalDigest) digests.set(name, read.approvalDigest);
      }),
  );
  return { id, dir: shown, files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1))), digests: new DigestsOnDemand(digests) };
}

// What a deferred file becomes once read: its source and its approval digest.
const deferredReads = new WeakMap<object, () => Promise<ArtifactRead>>();

/**
 * The work item with every file {@link readWorkItem} deferred read as it would have been at
 * once (text, facts, or the reason it is unreadable), and their approval digests; in the same
 * order. Anything reading a file's source must have it through here first.
 */
export async function withFacts(input: WorkItemInput): Promise<WorkItemInput> {
  if (![...input.files.values()].some((source) => deferredReads.has(source))) return input;
  const files = new Map<string, ArtifactSource>();
  const approvals = new Map<string, () => string>();
  for (const [name, source] of input.files) {
    const later = deferredReads.get(source);
    if (!later) {
      files.set(name, source);
      continue;
    }
    const read = await later();
    files.set(name, read.source);
    if (read.approvalDigest) approvals.set(name, read.approvalDigest);
  }
  const digests = input.digests instanceof DigestsOnDemand ? input.digests.with(approvals) : new DigestsOnDemand(approvals);
  return { ...input, files, digests };
}

/**
 * Approval digests, each computed the first time it is asked for. The execution log's means
 * rewriting its front-matter through the YAML document model, and most runs check no approval
 * of it: computed for every item, it was about a tenth of a warm report.
 */
class DigestsOnDemand implements ReadonlyMap<string, string> {
  private readonly known = new Map<string, string>();

  constructor(private readonly pending: ReadonlyMap<string, () => string>) {}

  /** The files whose digests it gives: each digest is a function of the file's name and bytes. */
  get names(): readonly string[] {
    return [...this.pending.keys()];
  }

  /** These digests and those of more files. */
  with(more: ReadonlyMap<string, () => string>): DigestsOnDemand {
    return new DigestsOnDemand(new Map([...this.pending, ...more]));
  }

  get size(): number {
    return this.pending.size;
  }

  has(name: string): boolean {
    return this.pending.has(name);
  }

  get(name: string): string | undefined {
    let digest = this.known.get(name);
    if (digest === undefined) {
      const compute = this.pending.get(name);
      if (compute === undefined) return undefined;
      digest = compute();
      this.known.set(name, digest);
    }
    return digest;
  }

  keys(): MapIterator<string> {
    return this.pending.keys();
  }

  entries(): MapIterator<[string, string]> {
    return new Map([...this.pending.keys()].map((name) => [name, this.get(name)!] as [string, string])).entries();
  }

  values(): MapIterator<string> {
    return new Map(this.entries()).values();
  }

  forEach(callback: (digest: string, name: string, map: ReadonlyMap<string, string>) => void): void {
    for (const [name, digest] of this.entries()) callback(digest, name, this);
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }
}

/** The names of the files whose approval digests `digests` gives on demand, when it is such a map. */
export function readDigestsOf(digests: object): readonly string[] | undefined {
  return digests instanceof DigestsOnDemand ? digests.names : undefined;
}

// The repository's and the spec root's own paths, links resolved: once a run, not once a work item.
const realPathsOf = new WeakMap<Repo, { readonly root: string; readonly specRoot: string | undefined }>();
function realPaths(repo: Repo): { readonly root: string; readonly specRoot: string | undefined } {
  let real = realPathsOf.get(repo);
  if (real === undefined) {
    let specRoot: string | undefined;
    try {
      specRoot = realpathSync.native(repo.specRoot);
    } catch {
      // Each work item's folder is resolved on its own.
    }
    real = { root: realpathSync.native(repo.root), specRoot };
    realPathsOf.set(repo, real);
  }
  return real;
}

// A work item's folder, links resolved; as given when it cannot be. A folder that is no link
// lies where the spec root really is: one lstat, where resolving its path takes a call for each
// of its components.
function realFolder(repo: Repo, id: string): string {
  const dir = join(repo.specRoot, id);
  try {
    const specRoot = realPaths(repo).specRoot;
    if (specRoot !== undefined && lstatSync(dir).isDirectory()) return join(specRoot, id);
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

// A file's source, and for a readable one how to compute its approval digest.
interface ArtifactRead {
  readonly source: ArtifactSource;
  readonly approvalDigest?: () => string;
}

async function readArtifact(name: string, path: string, reading: ReadOptions, cache: ArtifactCache | undefined, defer: boolean): Promise<ArtifactRead | undefined> {
  try {
    const bytes = await readBytesIfPresent(path, reading);
    // Listed a moment ago and gone now: absent, as if it had never been listed.
    if (bytes === undefined) return undefined;
    if (!cache) return await fromBytes(name, path, bytes, undefined);
    const digest = sha256(bytes);
    if (!defer) return await fromBytes(name, path, bytes, { cache, digest });
    // Read later, by withFacts. The stand-in is keyed by the bytes' digest, and fails closed if
    // anything reads it before then.
    const source = { unreadable: 'it was not read yet' };
    readFrom(source, digest);
    let read: Promise<ArtifactRead> | undefined;
    deferredReads.set(source, () => (read ??= fromBytes(name, path, bytes, { cache, digest })));
    return { source };
  } catch (error) {
    return { source: { unreadable: (error as Error).message } };
  }
}

// The source the bytes give: refused (binary, not UTF-8, a line or a file too long), or the text
// with the facts the cache gives for it.
async function fromBytes(name: string, path: string, bytes: Buffer, cached: { cache: ArtifactCache; digest: string } | undefined): Promise<ArtifactRead> {
  const unreadable = (reason: string) => ({ source: { unreadable: reason } });
  try {
    if (bytes.includes(0)) return unreadable('it is a binary file (it contains NUL bytes)');
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return unreadable('it is not valid UTF-8');
    }
    const refused = shapeRefused(text);
    if (refused) return unreadable(refused);
    const facts = cached ? await cached.cache.facts(cached.digest, text) : undefined;
    // A digest that cannot be computed matches no approval, so the gate stays shut.
    const approval = () => {
      try {
        return approvalDigest(name, bytes, text, facts ? artifactFromFacts(path, text, facts) : undefined);
      } catch {
        return '';
      }
    };
    if (!facts || !cached) return { source: { text }, approvalDigest: approval };
    const source = { text, facts };
    readFrom(source, cached.digest);
    return { source, approvalDigest: approval };
  } catch (error) {
    return unreadable((error as Error).message);
  }
}

// Why a text's lines are refused (one too long, too many of them), or undefined. A text shorter
// than either limit can break neither, as most spec files are: it is not read line by line for them.
function shapeRefused(text: string): string | undefined {
  if (text.length < Math.min(MAX_LINE_LENGTH, MAX_LINES)) return undefined;
  const shape = lineShape(text);
  if (shape.longest.length > MAX_LINE_LENGTH) return `line ${shape.longest.line} is ${shape.longest.length} characters long; lines over ${MAX_LINE_LENGTH} characters are refused`;
  if (shape.lines > MAX_LINES) return `it has ${shape.lines} lines; artifacts over ${MAX_LINES} lines are refused`;
  return undefined;
}

function lineShape(text: string): { lines: number; longest: { line: number; length: number } } {
  let longestLine = 1;
  let longest = 0;
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > longest) {
      longestLine = line;
      longest = stop - start;
    }
    if (end === -1) break;
    start = end + 1;
    line += 1;
  }
  return { lines: line, longest: { line: longestLine, length: longest } };
}
