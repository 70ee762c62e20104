import { statSync } from 'node:fs';

// Synchronous, as the bounded reader's calls are (decision 142): a warm run then loads no
// promise-based file-system module at all. Any error (a dangling link, a denied folder) reads
// as absent, as the promise-based stat's rejection did.

/** Whether something exists at `path`, links followed. */
export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a directory, links followed. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
