import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workItemFiles } from '../scripts/bench-corpus.mjs';

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

/** The text of every Markdown file of the repository, and of eight of the bench's generated work items (four artifacts each). */
export function markdownCorpus(): string[] {
  const texts = repositoryMarkdownFiles().map((file) => readFileSync(file, 'utf8'));
  for (let index = 0; index < 8; index += 1) texts.push(...Object.values(workItemFiles(`item-${index}`, index)));
  return texts;
}
