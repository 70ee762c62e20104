import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every Markdown file of the repository (docs, fixtures written the way other tools write specs,
 * READMEs), but in dependencies and hidden folders: real Markdown the readers are tested on.
 */
export function repositoryMarkdownFiles(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : repositoryMarkdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
