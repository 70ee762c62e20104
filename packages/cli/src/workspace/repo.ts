import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { COLLABORATORS_FILE, CONFIG_FILES, defaultConfig, parseCollaborators, parseHarnessConfig, type ArtifactFacts, type BaselineCounts, type Collaborator, type HarnessConfig, type KnownYamlValue, type ReportInput, type SourceIssue, type WorkItemInput, type WorkItemResult } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { readFrom, sha256 } from './digest.js';
import { readRepositoryFile } from './read-file.js';

/** Facts for an artifact's bytes: read from a cache when they were read before, else parsed. */
export interface ArtifactCache {
  facts(digest: string, text: string): Promise<ArtifactFacts>;
  /**
   * Keep those of `facts` that this cache parsed (no entry held them), or read from an entry that
   * lacked a part since asked for, once the gates have read them: only the parts read are
   * written, and each is kept once. Facts never given here are simply not kept.
   */
  keep(facts: Iterable<ArtifactFacts>): Promise<void>;
}

/**
 * What evaluating work items gave, kept by a key over everything the evaluation reads: each item's
 * report entry (decision 153), and its whole result before any baseline (decision 195).
 */
export interface ResultCache {
  /** The key of a work item's report entry, or undefined when some input cannot be keyed (then nothing is kept). */
  key(repo: Repo, input: WorkItemInput, accepted: BaselineCounts | undefined): string | undefined;
  /** The report entry kept under `key` for work item `id`, if there is one of the right shape. */
  read(key: string, id: string): ReportInput | undefined;
  /** Keep a report entry; a failure to write is no failure of the run. */
  write(key: string, item: ReportInput): Promise<void>;
  /** The key of a work item's whole result, before any baseline; never a report entry's. */
  resultKey(repo: Repo, input: WorkItemInput): string | undefined;
  /** The whole result kept under `key` for work item `id`, if there is one of the right shape. */
  readResult(key: string, id: string): KeptResult | undefined;
  /** Keep a whole result; a failure to write is no failure of the run. */
  writeResult(key: string, kept: KeptResult): Promise<void>;
}

/** A work item's whole result before any baseline, and the line digest of each of its findings (in their order), by which a baseline matches them. */
export interface KeptResult {
  readonly result: WorkItemResult;
  readonly lineDigests: readonly string[];
}

/** A repository the CLI works on: its root and its configuration. */
export interface Repo {
  readonly root: string;
  readonly config: HarnessConfig;
  /** Absolute path of the spec root. */
  readonly specRoot: string;
  /** `.the-loop/collaborators.yaml`; none when the file is absent. */
  readonly collaborators: readonly Collaborator[];
  /** Where facts read from artifacts are kept between runs; absent, every artifact is parsed. */
  readonly cache?: ArtifactCache | undefined;
  /** Where `report` keeps each work item's entry between runs (only beside the artifact cache). */
  readonly results?: ResultCache | undefined;
}

/** Values of the configuration files kept between runs, for the very text they were parsed from (decision 190). */
export interface ConfigCache {
  /** The value kept for exactly this text of `file`, if there is one. */
  known(file: string, text: string): KnownYamlValue | undefined;
  /** Keep the value a parse of `text` found; one JSON cannot give back exactly is not kept. A failure to write is no failure of the run. */
  keep(file: string, text: string, value: unknown): Promise<void>;
}

export interface LoadOptions {
  /** The configuration cache of the repository at a root: its files' values are read through it. */
  readonly configCache?: ((root: string) => ConfigCache) | undefined;
}

/**
 * Open the repository a command works on: `--repo DIR` when given, else the project the working
 * directory sits in, so a command run from any subfolder finds the configuration and spec root.
 */
export async function openRepo(cwd: string, repoOption: string | undefined, options: LoadOptions = {}): Promise<Repo> {
  return loadRepo(repoOption === undefined ? await findRepoRoot(cwd) : resolve(cwd, repoOption), options);
}

/** The nearest directory at or above `start` holding `.the-loop/` or `.git`; `start` itself when none does. */
export async function findRepoRoot(start: string): Promise<string> {
  const from = resolve(start);
  for (let dir = from; ; dir = dirname(dir)) {
    for (const marker of ['.the-loop', '.git']) if (existsSync(join(dir, marker))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/**
 * Load the configuration and collaborators of the repository at `root`. Every problem of both
 * files stops the command together (exit 2), each with its line: one round of fixes, not one per run.
 */
export async function loadRepo(root: string, options: LoadOptions = {}): Promise<Repo> {
  const values = options.configCache?.(root);
  let config = defaultConfig();
  let read = '';
  const issues: SourceIssue[] = [];
  for (const name of CONFIG_FILES) {
    // Strict: a configuration read with replacement characters would name paths that do not exist.
    const text = await readRepositoryFile(join(root, name), name, { within: root, encoding: 'strict-utf8' });
    if (text === undefined) continue;
    const result = await throughCache(values, name, text, (known) => parseHarnessConfig(name, text, known), (ok) => ok.config.source?.value);
    if (result.ok) config = result.config;
    else issues.push(...result.issues);
    read = `${name}\0${text}`;
    break;
  }
  // The configuration is a function of the file's name and text (none: the defaults): what is
  // computed from it is keyed by their digest rather than by the whole compiled graph.
  readFrom(config, () => sha256(read));
  let collaborators: readonly Collaborator[] = [];
  const people = await readRepositoryFile(join(root, COLLABORATORS_FILE), COLLABORATORS_FILE, { within: root });
  if (people !== undefined) {
    const result = await throughCache(values, COLLABORATORS_FILE, people, (known) => parseCollaborators(COLLABORATORS_FILE, people, known), (ok) => ok.source.value);
    if (result.ok) collaborators = result.collaborators;
    else issues.push(...result.issues);
  }
  if (issues.length > 0) throw configurationError('the configuration is invalid', issues);
  return { root, config, specRoot: join(root, config.specDir), collaborators };
}

/**
 * A configuration file read through the configuration cache, when there is one. A kept value
 * stands only for a file it finds valid: any problem is reported from the file parsed afresh, so
 * what a command names is always in the file, and a valid file's fresh value is kept.
 */
async function throughCache<R extends { ok: true } | { ok: false }>(values: ConfigCache | undefined, file: string, text: string, parse: (known?: KnownYamlValue) => R, valueOf: (result: Extract<R, { ok: true }>) => unknown): Promise<R> {
  const known = values?.known(file, text);
  const kept = known === undefined ? undefined : parse(known);
  if (kept?.ok) return kept;
  const result = parse();
  if (result.ok && values) await values.keep(file, text, valueOf(result as Extract<R, { ok: true }>));
  return result;
}
