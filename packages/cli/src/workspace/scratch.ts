import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private directory in the system's temp space for `use`, removed afterwards — also when `use` throws. */
export async function withScratchDir<T>(purpose: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `the-loop-${purpose}-`));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `content` in a private scratch file for `use`, removed afterwards. */
export function withScratchFile<T>(content: string, use: (path: string) => Promise<T>): Promise<T> {
  return withScratchDir('prompt', async (dir) => {
    const path = join(dir, 'prompt.md');
    await writeFile(path, content, { mode: 0o600 });
    return use(path);
  });
}
