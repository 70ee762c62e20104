import { constants, promises as fs } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Where `command` would be found by a process started in `cwd` with `env`: a name is looked
 * up on that environment's PATH, a path with a slash is taken relative to `cwd`. `critic
 * list` and `critic run` both use this, so "available" means what the round will find.
 */
export async function findExecutable(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<string | undefined> {
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutableFile(path)) ? path : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    // An empty PATH entry means the working directory, as for execvp.
    const candidate = resolve(cwd, join(dir === '' ? '.' : dir, command));
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await fs.stat(path)).isFile()) return false;
    await fs.access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
