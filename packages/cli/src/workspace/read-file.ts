import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

// Strict: a file read with replacement characters would name paths that do not exist.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The one way to read a file that may not be there: its text, or undefined when there is no
 * such file. Any other failure (a directory, no permission) throws; so does text that is not
 * UTF-8 when `strict`.
 */
export async function readIfPresent(path: string, encoding: 'utf8' | 'strict-utf8' = 'utf8'): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (encoding === 'utf8') return bytes.toString('utf8');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Error('it is not valid UTF-8');
  }
}

/**
 * A repository file a command reads before it does anything (the configuration, the
 * collaborators): its text, or undefined when absent; unreadable is a usage error naming it (exit 2).
 */
export async function readRepositoryFile(path: string, shown: string, encoding: 'utf8' | 'strict-utf8' = 'utf8'): Promise<string | undefined> {
  try {
    return await readIfPresent(path, encoding);
  } catch (error) {
    throw new UsageError(`cannot read ${shown}: ${(error as Error).message}`);
  }
}
