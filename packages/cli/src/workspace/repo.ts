import { join, resolve } from 'node:path';
import { COLLABORATORS_FILE, CONFIG_FILES, defaultConfig, parseCollaborators, parseHarnessConfig, type ArtifactFacts, type Collaborator, type HarnessConfig, type SourceIssue } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { readRepositoryFile } from './read-file.js';

/** Facts for an artifact's bytes: read from a cache when they were read before, else parsed. */
export interface ArtifactCache {
  facts(digest: string, text: string): Promise<ArtifactFacts>;
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
}

/**
 * Load the repository's configuration and collaborators. Every problem of both files stops the
 * command together (exit 2), each with its line: one round of fixes, not one per run.
 */
export async function openRepo(cwd: string, repoOption: string | undefined): Promise<Repo> {
  const root = resolve(cwd, repoOption ?? '.');
  let config = defaultConfig();
  const issues: SourceIssue[] = [];
  for (const name of CONFIG_FILES) {
    // Strict: a configuration read with replacement characters would name paths that do not exist.
    const text = await readRepositoryFile(join(root, name), name, { within: root, encoding: 'strict-utf8' });
    if (text === undefined) continue;
    const result = parseHarnessConfig(name, text);
    if (result.ok) config = result.config;
    else issues.push(...result.issues);
    break;
  }
  let collaborators: readonly Collaborator[] = [];
  const people = await readRepositoryFile(join(root, COLLABORATORS_FILE), COLLABORATORS_FILE, { within: root });
  if (people !== undefined) {
    const result = parseCollaborators(COLLABORATORS_FILE, people);
    if (result.ok) collaborators = result.collaborators;
    else issues.push(...result.issues);
  }
  if (issues.length > 0) throw configurationError('the configuration is invalid', issues);
  return { root, config, specRoot: join(root, config.specDir), collaborators };
}
