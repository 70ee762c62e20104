import { join, resolve } from 'node:path';
import { CONFIG_FILES, defaultConfig, parseHarnessConfig, type ArtifactFacts, type HarnessConfig } from '@the-loop/core';
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
  /** Where facts read from artifacts are kept between runs; absent, every artifact is parsed. */
  readonly cache?: ArtifactCache | undefined;
}

/** Load the repository's configuration; a broken file stops the command (exit 2). */
export async function openRepo(cwd: string, repoOption: string | undefined): Promise<Repo> {
  const root = resolve(cwd, repoOption ?? '.');
  let config = defaultConfig();
  for (const name of CONFIG_FILES) {
    // Strict: a configuration read with replacement characters would name paths that do not exist.
    const text = await readRepositoryFile(join(root, name), name, 'strict-utf8');
    if (text === undefined) continue;
    const result = parseHarnessConfig(name, text);
    if (!result.ok) throw configurationError('the configuration is invalid', result.issues);
    config = result.config;
    break;
  }
  return { root, config, specRoot: join(root, config.specDir) };
}
