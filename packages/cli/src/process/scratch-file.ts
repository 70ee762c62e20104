import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Write `content` to a private scratch file, hand its path to `use`, and remove it
 * afterwards — also when `use` throws.
 */
export async function withScratchFile<T>(content: string, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'the-loop-prompt-'));
  try {
    const path = join(dir, 'prompt.md');
    await writeFile(path, content, { mode: 0o600 });
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
