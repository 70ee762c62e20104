import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactFromFacts, extractFacts, FACTS_JSON_FORMAT, factsToJson, PARSER_VERSION, type ArtifactFacts } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { copyRetrofit, runCli, tempDir } from '../test-support/cli.js';
import type { ArtifactCache } from '../workspace/repo.js';
import { artifactCache, CACHE_DIR, entryName } from './artifact-cache.js';


const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');
const entryPath = (root: string, digest: string): string => join(root, CACHE_DIR, digest.slice(0, 2), entryName(digest));

/** An entry's text as the cache writes it: the facts' head inside the first line, their other lines after it. */
function entryText(digest: string, facts: ArtifactFacts, header: Record<string, unknown> = { parser: PARSER_VERSION, format: FACTS_JSON_FORMAT }): string {
  const [head, ...parts] = factsToJson(facts) as string[];
  return [JSON.stringify({ ...header, digest, facts: JSON.parse(head as string) as unknown }), ...parts].join('\n');
}

/** The facts a cache gives for `text`, kept once every part of them is read, as after gates that read them all. */
async function readAndKeep(cache: ArtifactCache, digest: string, text: string): Promise<ArtifactFacts> {
  const facts = await cache.facts(digest, text);
  JSON.stringify(facts);
  await cache.keep([facts]);
  return facts;
}

/** A fresh cache holding the facts of `text`, and where its entry is. */
async function cachedOnce(text: string) {
  const root = await tempDir('cache');
  const digest = digestOf(text);
  await readAndKeep(artifactCache(root), digest, text);
  return { root, text, digest, expected: extractFacts(text), path: entryPath(root, digest) };
}

async function entries(root: string): Promise<string[]> {
  const dir = join(root, CACHE_DIR);
  const buckets = await readdir(dir).catch(() => [] as string[]);
  return (await Promise.all(buckets.map(async (bucket) => (await readdir(join(dir, bucket))).map((name) => `${bucket}/${name}`)))).flat();
}

describe('the artifact cache', () => {
  it('gives the facts parsing gives, and reads them from disk the second time', async () => {
    const root = await tempDir('cache');
    const text = '---\nstatus: draft\n---\n# Tasks\n\n- [ ] one\n- [x] two\n';
    const digest = digestOf(text);
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(extractFacts(text));
    expect(await entries(root)).toEqual([`${digest.slice(0, 2)}/${entryName(digest)}`]);
    // Facts stored under that digest are what a later run gets, without parsing.
    const other = extractFacts('# Tasks\n\n- [x] everything\n');
    await writeFile(entryPath(root, digest), entryText(digest, other));
    expect(await artifactCache(root).facts(digest, text)).toEqual(other);
  });

  it('ignores and rewrites an entry that is corrupt, of other bytes, or not facts', async () => {
    const { root, text, digest, expected, path } = await cachedOnce('# Tasks\n\n- [ ] open\n');
    const good = entryText(digest, expected);
    const [first, ...rest] = good.split('\n') as [string, ...string[]];
    const corrupt = [
      Buffer.from('not JSON'),
      `{"parser":${PARSER_VERSION},`,
      entryText(digestOf('other bytes'), extractFacts('# Other\n')),
      entryText(digest, expected, { parser: PARSER_VERSION + 1, format: FACTS_JSON_FORMAT }),
      entryText(digest, expected, { parser: PARSER_VERSION, format: FACTS_JSON_FORMAT + 1 }),
      entryText(digest, expected, { parser: PARSER_VERSION }),
      [first.replace('"lineCount":', '"tasks":"none","lineCount":'), ...rest].join('\n'),
      // A line short: the sections' items are not all there.
      good.slice(0, good.lastIndexOf('\n')),
      // A line of the previous form: the whole facts in one.
      JSON.stringify({ parser: PARSER_VERSION, format: FACTS_JSON_FORMAT, digest, facts: expected }),
    ];
    for (const bytes of corrupt) {
      await writeFile(path, bytes);
      expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
      expect(await readFile(path, 'utf8')).toBe(good);
    }
  });

  it('writes parsed facts only when they are kept, with the parts read by then', async () => {
    const root = await tempDir('cache');
    const cache = artifactCache(root);
    const text = '# Tasks\n\n- [ ] one\n- [x] two\n\n## Notes\n\n- a note\n';
    const digest = digestOf(text);
    const facts = await cache.facts(digest, text);
    expect(await entries(root)).toEqual([]);
    expect(facts.tasks.map((task) => task.text)).toEqual(['one', 'two']);
    await cache.keep([facts]);
    // The head, then the statements (not read), the tasks (read) and each section's items (not read).
    const lines = (await readFile(entryPath(root, digest), 'utf8')).split('\n');
    expect(lines.slice(1)).toEqual(['null', JSON.stringify(facts.tasks), 'null', 'null']);
    // Each parsed document is kept once.
    await cache.keep([facts]);
    expect(await readFile(entryPath(root, digest), 'utf8')).toBe(lines.join('\n'));
    // A later run that reads only what the entry holds leaves it as it is.
    const later = artifactCache(root);
    const kept = await later.facts(digest, text);
    expect(kept.tasks).toEqual(facts.tasks);
    await later.keep([kept]);
    expect(await readFile(entryPath(root, digest), 'utf8')).toBe(lines.join('\n'));
    // One that asks for a part the entry lacks reads it from the bytes, and writes the entry
    // again with it: the statements now, the items still not.
    const next = artifactCache(root);
    const more = await next.facts(digest, text);
    expect([more.tasks, more.statements]).toEqual([facts.tasks, facts.statements]);
    await next.keep([more]);
    expect((await readFile(entryPath(root, digest), 'utf8')).split('\n').slice(1)).toEqual([JSON.stringify(facts.statements), JSON.stringify(facts.tasks), 'null', 'null']);
    expect(await artifactCache(root).facts(digest, text)).toEqual(extractFacts(text));
  });

  it('takes a part it reads on first use from the bytes when that part of the entry is corrupt', async () => {
    const { root, text, digest, expected, path } = await cachedOnce('# Tasks\n\n- [ ] open\n- [x] done\n\n## Notes\n\nA statement.\n');
    const good = (await readFile(path, 'utf8')).split('\n');
    // After the head: the statements, the tasks, then each section's items.
    for (let line = 1; line < good.length; line += 1) {
      for (const bad of ['not JSON', '{}', '[{"text":1}]', '[null]']) {
        await writeFile(path, good.map((text, at) => (at === line ? bad : text)).join('\n'));
        const cache = artifactCache(root);
        const facts = await cache.facts(digest, text);
        const artifact = artifactFromFacts('docs/specs/x/tasks.md', text, facts);
        expect(artifact.tasks.map((task) => [task.text, task.done])).toEqual([['open', false], ['done', true]]);
        expect(artifact.sections.map((section) => section.items.length)).toEqual([2, 0]);
        expect(facts).toEqual(expected);
        // Kept, the entry is whole again.
        await cache.keep([facts]);
        expect((await readFile(path, 'utf8')).split('\n')).toEqual(good);
      }
    }
  });

  it('is not trapped by a hostile entry: a FIFO, a symbolic link, a bucket linked elsewhere', async () => {
    const { root, text, digest, expected, path } = await cachedOnce('# Tasks\n\n- [ ] open\n');
    // A FIFO would block a plain read for ever.
    await rm(path);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
    // A link to facts elsewhere is not followed.
    const elsewhere = join(root, 'forged.json');
    await writeFile(elsewhere, JSON.stringify({ parser: PARSER_VERSION, format: FACTS_JSON_FORMAT, digest, facts: extractFacts('# Tasks\n\n- [x] all\n') }));
    await rm(path);
    await symlink(elsewhere, path);
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
    // A bucket replaced by a link to another directory: nothing there is written or removed.
    const victim = await tempDir('cache');
    await writeFile(join(victim, 'keep.txt'), 'x'.repeat(2 * 1024 * 1024));
    await rm(join(root, CACHE_DIR, digest.slice(0, 2)), { recursive: true });
    await symlink(victim, join(root, CACHE_DIR, digest.slice(0, 2)));
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
    expect(await readdir(victim)).toEqual(['keep.txt']);
  });

  it('local state switches enforcement off: an entry past its size and a cache folder linked out of the repository are no entries', async () => {
    const { root, text, digest, expected, path } = await cachedOnce('# Tasks\n\n- [ ] open\n');
    // Over the 512 KB an entry may take, holding facts that would pass the gate: not read, discarded.
    const passing = entryText(digest, extractFacts('# Tasks\n\n- [x] all\n'));
    await writeFile(path, `${passing}${' '.repeat(600 * 1024)}`);
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
    // The folder above the buckets linked to another directory: its entries are not believed and nothing is written there.
    const elsewhere = await tempDir('cache');
    const forged = join(elsewhere, digest.slice(0, 2));
    await cp(join(root, CACHE_DIR), elsewhere, { recursive: true });
    await writeFile(join(forged, entryName(digest)), passing);
    const before = await readFile(join(forged, entryName(digest)));
    await rm(join(root, CACHE_DIR), { recursive: true });
    await symlink(elsewhere, join(root, CACHE_DIR));
    expect(await readAndKeep(artifactCache(root), digest, text)).toEqual(expected);
    expect(await readFile(join(forged, entryName(digest)))).toEqual(before);
  });

  it('keeps each bucket under its bound, dropping the oldest entries first', async () => {
    const root = await tempDir('cache');
    const cache = artifactCache(root);
    // Random tasks (each also a statement, written once: about 80 KB of facts), every digest in the same bucket.
    const digests: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const text = `# T\n\n${Array.from({ length: 400 }, () => `- [ ] ${createHash('sha256').update(`${i}-${Math.random()}`).digest('base64')}`).join('\n')}\n`;
      const digest = `ab${digestOf(text).slice(2)}`;
      digests.push(digest);
      await readAndKeep(cache, digest, text);
    }
    const bucket = join(root, CACHE_DIR, 'ab');
    const names = await readdir(bucket);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(bucket, name))).size));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1024 * 1024);
    expect(names.length).toBeLessThan(30);
    expect(names).toContain(entryName(digests[29] as string));
    expect(names).not.toContain(entryName(digests[0] as string));
  });
});

describe('reports with and without the cache', () => {
  it('are byte-identical, cold and warm, in every format', async () => {
    const root = await tempDir('cache');
    await copyRetrofit(root);
    for (const format of ['json', 'table', 'markdown']) {
      const fresh = await runCli(['report', '--repo', root, '--format', format, '--no-cache'], { cwd: root });
      const cold = await runCli(['report', '--repo', root, '--format', format], { cwd: root });
      const warm = await runCli(['report', '--repo', root, '--format', format], { cwd: root });
      expect(fresh.stderr).toBe('');
      expect([cold.code, warm.code]).toEqual([fresh.code, fresh.code]);
      expect(cold.stdout).toBe(fresh.stdout);
      expect(warm.stdout).toBe(fresh.stdout);
    }
    // One entry per distinct artifact of the 34 work items, and git never sees them.
    expect((await entries(root)).length).toBeGreaterThan(100);
    expect(await readFile(join(root, '.the-loop/local/.gitignore'), 'utf8')).toBe('*\n');
    // One artifact edited: its item is evaluated again, its other artifacts' facts read from the
    // entries the first run kept, each with the parts its gates had read (decision 198).
    const design = join(root, 'docs/specs/issue-12/design.md');
    await writeFile(design, `${await readFile(design, 'utf8')}\n## Added later\n\n- a new point\n`);
    for (const args of [['report', '--format', 'json'], ['check', 'issue-12', '--format', 'json']]) {
      const fresh = await runCli([...args, '--repo', root, '--no-cache'], { cwd: root });
      const edited = await runCli([...args, '--repo', root], { cwd: root });
      expect(fresh.stderr).toBe('');
      expect([edited.code, edited.stdout]).toEqual([fresh.code, fresh.stdout]);
    }
  });

  it('is not used with --no-cache, nor in CI', async () => {
    const root = await tempDir('cache');
    await copyRetrofit(root);
    await runCli(['check', 'issue-12', '--repo', root, '--no-cache'], { cwd: root });
    await runCli(['report', '--repo', root, '--no-cache'], { cwd: root });
    await runCli(['report', '--repo', root], { cwd: root, env: { CI: 'true' } });
    expect(await entries(root)).toEqual([]);
    await runCli(['check', 'issue-12', '--repo', root], { cwd: root });
    expect((await entries(root)).length).toBeGreaterThan(0);
  });
});
