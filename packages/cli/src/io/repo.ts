import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CONFIG_FILES, defaultConfig, parseHarnessConfig, type HarnessConfig, type SourceIssue } from '@the-loop/core';
import type { ArtifactCache } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';

/** A repository the CLI works on: its root and its configuration. */
export interface Repo {
  readonly root: string;
  readonly config: HarnessConfig;
  /** Absolute path of the spec root. */
  readonly specRoot: string;
  /** Where facts read from artifacts are kept between runs; absent, every artifact is parsed. */
  readonly cache?: ArtifactCache | undefined;
}

// Strict: a configuration read with replacement characters would name paths that do not exist.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Load the repository's configuration; a broken file stops the command (exit 2). */
export async function openRepo(cwd: string, repoOption: string | undefined): Promise<Repo> {
  const root = resolve(cwd, repoOption ?? '.');
  let config = defaultConfig();
  for (const name of CONFIG_FILES) {
    const path = join(root, name);
    let text: string;
    try {
      text = utf8.decode(await readFile(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if (error instanceof TypeError) throw new UsageError(`cannot read ${name}: it is not valid UTF-8`);
      throw new UsageError(`cannot read ${name}: ${(error as Error).message}`);
    }
    const result = parseHarnessConfig(name, text);
    if (!result.ok) throw new UsageError(formatIssues('the configuration is invalid', result.issues));
    config = result.config;
    break;
  }
  return { root, config, specRoot: join(root, config.specDir) };
}

/** Several positioned problems as one message, one `file:line:col  message` per line. */
export function formatIssues(title: string, issues: readonly SourceIssue[]): string {
  return [`${title}:`, ...issues.map((i) => `  ${i.file}:${i.line}:${i.column}  ${i.message}`)].join('\n');
}
