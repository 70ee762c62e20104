import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { join } from 'node:path';
import { onFatalSignal } from '../process/signals.js';

/**
 * A private directory in the system's temp space for `use`, removed afterwards — also when
 * `use` throws, and when the CLI is stopped by SIGINT, SIGTERM or SIGHUP meanwhile (a prompt
 * may hold what is under review; it must not be left behind).
 */
export async function withScratchDir<T>(purpose: string, use: (dir: string) => Promise<T>): Promise<T> {
  // Loaded here: most commands that import this module never make a scratch directory.
  const dir = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), `the-loop-${purpose}-`));
  const release = onFatalSignal(() => rmSync(dir, { recursive: true, force: true }));
  try {
    return await use(dir);
  } finally {
    release();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `content` in a private scratch file for `use`, removed afterwards. */
export function withScratchFile<T>(content: string, use: (path: string) => Promise<T>): Promise<T> {
  return withScratchDir('prompt', async (dir) => {
    const path = join(dir, 'prompt.md');
    await fs.writeFile(path, content, { mode: 0o600 });
    return use(path);
  });
}
