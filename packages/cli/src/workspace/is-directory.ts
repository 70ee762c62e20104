import { statSync } from 'node:fs';

/**
 * Whether `path` is a directory, links followed. Synchronous, as the bounded reader's calls are
 * (decision 142): a warm run loads no promise-based file-system module. Any error (a dangling
 * link, a denied folder) reads as no directory, as `existsSync` reads it as nothing there.
 */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
