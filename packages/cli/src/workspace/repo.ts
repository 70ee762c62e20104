import { join, resolve } from 'node:path';
import { CONFIG_FILES, defaultConfig, parseHarnessConfig, type HarnessConfig } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { readRepositoryFile } from './read-file.js';

/** A repository the CLI works on: its root and its configuration. */
export interface Repo {
  readonly root: string;
  readonly config: HarnessConfig;
  /** Absolute path of the spec root. */
  readonly specRoot: string;
}

/** Load the repository's configuration; a broken file stops the command (exit 2). */
export async function openRepo(cwd: string, repoOption: string | undefined): Promise<Repo> {
  const root = resolve(cwd, repoOption ?? '.');
  let config = defaultConfig();
  for (const name of CONFIG_FILES) {
    // Strict: a configuration read with replacement characters would name paths that do not exist.
    const text = await readRepositoryFile(join(root, name), name, { within: root, encoding: 'strict-utf8' });
    if (text === undefined) continue;
    const result = parseHarnessConfig(name, text);
    if (!result.ok) throw configurationError('the configuration is invalid', result.issues);
    config = result.config;
    break;
  }
  return { root, config, specRoot: join(root, config.specDir) };
}
