import { join } from 'node:path';
import { COLLABORATORS_FILE, parseCollaborators, type Collaborator } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { readRepositoryFile } from './read-file.js';
import type { Repo } from './repo.js';

const cache = new WeakMap<Repo, Promise<readonly Collaborator[]>>();

/** The repository's collaborators; none when the file is absent. A broken file is exit 2 with its lines. */
export function loadCollaborators(repo: Repo): Promise<readonly Collaborator[]> {
  let loaded = cache.get(repo);
  if (!loaded) {
    loaded = read(repo);
    cache.set(repo, loaded);
  }
  return loaded;
}

async function read(repo: Repo): Promise<readonly Collaborator[]> {
  const text = await readRepositoryFile(join(repo.root, COLLABORATORS_FILE), COLLABORATORS_FILE, { within: repo.root });
  if (text === undefined) return [];
  const result = parseCollaborators(COLLABORATORS_FILE, text);
  if (!result.ok) throw configurationError(`${COLLABORATORS_FILE} is invalid`, result.issues);
  return result.collaborators;
}
