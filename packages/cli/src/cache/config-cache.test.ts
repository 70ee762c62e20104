// The configuration cache through `check <id>` and the Stop hook run in process, on a copy of
// retrofit items in a repository set up by `init`: what a command decides is what it decides
// with the configuration parsed afresh, whatever the cache holds.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_YAML_DEPTH, parseYamlSource, YAML_READER } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { copyRetrofit, runCli, tempDir, writeFiles } from '../test-support/cli.js';
import { CONFIG_CACHE_DIR, configCache } from './config-cache.js';

const ID = 'issue-23';
const CONFIG = '.the-loop/harness-config.yaml';
const PEOPLE = '.the-loop/collaborators.yaml';
async function configured(): Promise<string> {
  const root = await tempDir('config-cache');
  await copyRetrofit(root, [ID]);
  expect((await runCli(['init'], { cwd: root })).code).toBe(0);
  await writeFiles(root, { [PEOPLE]: 'collaborators:\n  - login: ann\n    roles: [approver]\n' });
  return root;
}

const check = (root: string, ...extra: string[]) => runCli(['check', ID, '--format', 'json', ...extra], { cwd: root });
const entries = async (root: string) => (await readdir(join(root, CONFIG_CACHE_DIR), { recursive: true })).filter((name) => name.endsWith('.json')).sort();
const entry = (root: string, file: string) => join(root, CONFIG_CACHE_DIR, 'yaml', `${file.split('/').pop()}.json`);
const valueOf = (file: string, text: string) => {
  const parsed = parseYamlSource(file, text);
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  return parsed.source.value;
};

describe('the configuration cache', () => {
  it('keeps the values of the configuration and the collaborators, and a check through them is the check without', async () => {
    const root = await configured();
    const fresh = await check(root, '--no-cache');
    expect(fresh.code).toBe(1);
    await expect(readdir(join(root, CONFIG_CACHE_DIR))).rejects.toThrow();
    expect(await check(root)).toEqual(fresh);
    expect(await entries(root)).toEqual(['yaml/collaborators.yaml.json', 'yaml/harness-config.yaml.json']);
    const kept = JSON.parse(await readFile(entry(root, CONFIG), 'utf8')) as { file: string; text: string; value: unknown };
    expect(kept).toMatchObject({ file: CONFIG, text: await readFile(join(root, CONFIG), 'utf8'), value: { workflow: { preset: 'the-loop' } } });
    expect(configCache(root).known(PEOPLE, await readFile(join(root, PEOPLE), 'utf8'))).toEqual({ value: { collaborators: [{ login: 'ann', roles: ['approver'] }] } });
    expect(await check(root)).toEqual(fresh);
    // What a run reads is the kept value, not the file parsed again: a value kept for this very
    // text by another hand decides (the machine's own state, as every cache is; CI keeps none).
    const text = await readFile(join(root, CONFIG), 'utf8');
    await writeFile(entry(root, CONFIG), JSON.stringify({ format: 1, reader: YAML_READER, file: CONFIG, text, value: { workflow: { specDir: 'elsewhere' } } }));
    expect(await check(root)).toMatchObject({ code: 2, stderr: expect.stringContaining('elsewhere') });
    expect(await runCli(['check', ID, '--format', 'json'], { cwd: root, env: { CI: 'true' } })).toEqual(fresh);
  });

  it('keeps nothing in CI or with --no-cache', async () => {
    const root = await configured();
    await runCli(['check', ID], { cwd: root, env: { CI: 'true' } });
    await check(root, '--no-cache');
    await runCli(['hook', 'Stop', '--harness', 'claude', '--work-item', ID], { cwd: root, env: { CI: '1' }, input: '{}' });
    await expect(readdir(join(root, CONFIG_CACHE_DIR))).rejects.toThrow();
  });

  it('reads a changed file afresh: its new value decides at once', async () => {
    const root = await configured();
    await check(root);
    const ruleId = (JSON.parse((await check(root)).stdout) as { findings: { ruleId: string; severity: string }[] }).findings.find((finding) => finding.severity === 'error')?.ruleId;
    expect(ruleId).toBeDefined();
    await writeFile(join(root, CONFIG), `${await readFile(join(root, CONFIG), 'utf8')}rules:\n  ${ruleId}: warn\n`);
    const changed = await check(root);
    expect(changed).toEqual(await check(root, '--no-cache'));
    expect((JSON.parse(changed.stdout) as { findings: { ruleId: string; severity: string }[] }).findings.filter((finding) => finding.ruleId === ruleId).map((finding) => finding.severity)).not.toContain('error');
    expect(JSON.parse(await readFile(entry(root, CONFIG), 'utf8'))).toMatchObject({ value: { rules: { [ruleId as string]: 'warn' } } });
  });

  it('ignores an entry that is corrupt, for another text, file or reader, a FIFO or a link, and writes it again', async () => {
    const root = await configured();
    const fresh = await check(root, '--no-cache');
    const text = await readFile(join(root, CONFIG), 'utf8');
    const forged = (fields: Record<string, unknown>) => JSON.stringify({ format: 1, reader: YAML_READER, file: CONFIG, text, value: { workflow: { preset: 'kiro' } }, ...fields });
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'entry.json'), forged({}));
    const plant: ((path: string) => Promise<unknown>)[] = [
      (path) => writeFile(path, '{"format":1,"text":'),
      (path) => writeFile(path, forged({ text: `${text}\n` })),
      (path) => writeFile(path, forged({ file: '.the-loop/config.yaml' })),
      (path) => writeFile(path, forged({ reader: 'yaml 1.0.0, 1' })),
      (path) => writeFile(path, forged({ format: 0 })),
      // For this very text, but a value the configuration's checks refuse: the file is read afresh.
      (path) => writeFile(path, forged({ value: { workflow: { preset: 'nope' }, rulez: {} } })),
      async (path) => spawnSync('mkfifo', [path]),
      (path) => symlink(join(outside, 'entry.json'), path),
    ];
    for (const put of plant) {
      await check(root);
      await rm(entry(root, CONFIG));
      await put(entry(root, CONFIG));
      expect(await check(root)).toEqual(fresh);
      expect(await check(root)).toEqual(fresh);
      expect(JSON.parse(await readFile(entry(root, CONFIG), 'utf8'))).toMatchObject({ text, value: { workflow: { preset: 'the-loop' } } });
    }
  });

  it('places a problem found in a kept value at its line in the file, as a fresh parse does', async () => {
    // A value kept by an earlier version of the CLI, whose configuration had a key this one does not know.
    const root = await configured();
    const text = `${await readFile(join(root, CONFIG), 'utf8')}hooks:\n  noProgressCaps: 3\n`;
    await writeFile(join(root, CONFIG), text);
    await configCache(root).keep(CONFIG, text, valueOf(CONFIG, text));
    const fresh = await check(root, '--no-cache');
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toContain(`${CONFIG}:${text.split('\n').length - 1}:`);
    expect(await check(root)).toEqual(fresh);
  });

  it('takes no value nested deeper than a file the reader parses', async () => {
    const root = await configured();
    const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });
    const file = entry(root, CONFIG);
    await check(root);
    for (const [depth, taken] of [[MAX_YAML_DEPTH, true], [MAX_YAML_DEPTH + 1, false], [100_000, false]] as const) {
      // Written as JSON text: a value 100,000 deep is more than JSON.stringify would walk.
      const value = `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
      await writeFile(file, `{"format":1,"reader":${JSON.stringify(YAML_READER)},"file":${JSON.stringify(CONFIG)},"text":"t","value":${value}}`);
      expect(configCache(root).known(CONFIG, 't')).toEqual(taken ? { value: nested(depth) } : undefined);
    }
  });

  it('keeps no value JSON cannot give back exactly', async () => {
    const root = await configured();
    const cache = configCache(root);
    const looped: Record<string, unknown> = { a: 1 };
    looped['self'] = looped;
    for (const value of [{ limit: Number.POSITIVE_INFINITY }, { zero: -0 }, { not: Number.NaN }, looped]) {
      await cache.keep(CONFIG, 'text', value);
      expect(cache.known(CONFIG, 'text')).toBeUndefined();
    }
    await cache.keep(CONFIG, 'text', { list: [1, 'two', null, true, { three: 3 }] });
    expect(cache.known(CONFIG, 'text')).toEqual({ value: { list: [1, 'two', null, true, { three: 3 }] } });
    expect(cache.known(CONFIG, 'other text')).toBeUndefined();
    expect(cache.known(PEOPLE, 'text')).toBeUndefined();
  });
});
