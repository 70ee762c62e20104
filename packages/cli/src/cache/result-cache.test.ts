// The result cache through `report` run in process, on real temporary repositories: a report
// read through it is the report read without it, before and after every kind of input changes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyRetrofit, git, graphConfig, LOCKED, payload, runCli, TASKS_OPEN, tempDir, writeFiles } from '../test-support/cli.js';
import { CACHE_DIR } from './artifact-cache.js';
import { encode, RESULTS_DIR } from './result-cache.js';

async function fixtureCopy(): Promise<string> {
  const root = await tempDir('results');
  await copyRetrofit(root);
  return root;
}

async function repo(files: Record<string, string>): Promise<string> {
  const root = await tempDir('results');
  await writeFiles(root, files);
  return root;
}

/** Every entry of the result cache, as `bucket/name`. */
async function entries(root: string): Promise<string[]> {
  const dir = join(root, RESULTS_DIR);
  const buckets = await readdir(dir).catch(() => [] as string[]);
  return (await Promise.all(buckets.map(async (bucket) => (await readdir(join(dir, bucket))).map((name) => `${bucket}/${name}`)))).flat().sort();
}

const report = (root: string, ...args: string[]) => runCli(['report', '--repo', root, ...args], { cwd: root });

/**
 * The report through the cache, twice (the first run may fill it, the second reads it), and
 * `--no-cache`: all three the same exit code and bytes. Returns the report.
 */
async function agreed(root: string, format = 'json'): Promise<string> {
  const first = await report(root, '--format', format);
  const second = await report(root, '--format', format);
  const fresh = await report(root, '--format', format, '--no-cache');
  expect(fresh.stderr).toBe('');
  expect([first.code, first.stdout]).toEqual([fresh.code, fresh.stdout]);
  expect([second.code, second.stdout]).toEqual([fresh.code, fresh.stdout]);
  return fresh.stdout;
}

/**
 * Make each change in turn: after each, the report differs from the one before it, is the same
 * through the cache as without it, and was computed afresh (an entry under a new key was written).
 */
async function changes(root: string, steps: readonly [string, () => Promise<unknown>][]): Promise<void> {
  let before = await agreed(root);
  let kept = (await entries(root)).length;
  expect(kept).toBeGreaterThan(0);
  for (const [what, change] of steps) {
    await change();
    const after = await agreed(root);
    expect(after, what).not.toBe(before);
    const now = (await entries(root)).length;
    expect(now, what).toBeGreaterThan(kept);
    [before, kept] = [after, now];
  }
}

describe('the result cache', () => {
  it('gives reports byte-identical to those read without it, in every format, and a warm one reads no facts', async () => {
    const root = await fixtureCopy();
    for (const format of ['json', 'table', 'markdown']) await agreed(root, format);
    expect((await entries(root)).length).toBe(34);
    // With every entry kept, the artifacts' facts are not read: their cache is not even looked at.
    await rm(join(root, CACHE_DIR), { recursive: true });
    const warm = await report(root, '--format', 'json');
    expect(warm.stdout).toBe((await report(root, '--format', 'json', '--no-cache')).stdout);
    expect(existsSync(join(root, CACHE_DIR))).toBe(false);
  });

  it('is neither read nor written with --no-cache or in CI', async () => {
    const root = await fixtureCopy();
    await report(root, '--no-cache');
    await runCli(['report', '--repo', root], { cwd: root, env: { CI: 'true' } });
    expect(await entries(root)).toEqual([]);
    await report(root);
    const kept = await entries(root);
    expect(kept.length).toBe(34);
    // An entry that claims every item passes is not read by either.
    for (const entry of kept) await writeFile(join(root, RESULTS_DIR, entry), 'forged');
    const fresh = await report(root, '--format', 'json', '--no-cache');
    const ci = await runCli(['report', '--repo', root, '--format', 'json'], { cwd: root, env: { CI: '1' } });
    expect(ci.stdout).toBe(fresh.stdout);
    expect(await readFile(join(root, RESULTS_DIR, kept[0] as string), 'utf8')).toBe('forged');
  });

  it('reports as without it after each kind of input changes: artifacts, graph state, approvers, the baseline, the configuration', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': graphConfig({ humanApproval: true }),
      '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: alice, roles: [approver]}\n',
      'docs/specs/a/requirements.md': LOCKED,
      'docs/specs/a/tasks.md': TASKS_OPEN,
      'docs/specs/b/requirements.md': LOCKED,
      'docs/specs/b/tasks.md': TASKS_OPEN,
    });
    const steps: [string, () => Promise<unknown>][] = [
      ['graph state: an approval recorded', () => runCli(['graph', 'approve', 'a', 'requirements.md', '--by', 'alice'], { cwd: root })],
      ['the baseline', () => runCli(['baseline'], { cwd: root })],
      ['an artifact\'s bytes', () => writeFiles(root, { 'docs/specs/a/tasks.md': `${TASKS_OPEN}- [ ] Ship the greeting\n` })],
      ['the approvers', () => writeFiles(root, { '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: alice, roles: [lead]}\n' })],
      ['graph state: unreadable', () => writeFiles(root, { 'docs/specs/b/graph-state.json': '{ not JSON' })],
      ['an artifact that is no text', () => writeFile(join(root, 'docs/specs/b/tasks.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]))],
      ['an artifact with a line too long', () => writeFiles(root, { 'docs/specs/b/tasks.md': `# Tasks\n\n- [ ] ${'x'.repeat(10_001)}\n` })],
      ['the configuration', () => writeFiles(root, { '.the-loop/harness-config.yaml': graphConfig() })],
    ];
    await changes(root, steps);
    // Back to bytes read before, with every other input as it was then: the entry kept then is read.
    await writeFiles(root, { '.the-loop/harness-config.yaml': graphConfig({ humanApproval: true }), 'docs/specs/b/tasks.md': TASKS_OPEN });
    const kept = await entries(root);
    await agreed(root);
    expect(await entries(root)).toEqual(kept);
    // A baseline entry's message is for whoever reviews the file: editing it changes no result.
    const baseline = join(root, '.the-loop/baseline.json');
    const text = await readFile(baseline, 'utf8');
    const doc = JSON.parse(text) as { findings: { message: string }[] };
    for (const entry of doc.findings) entry.message = `reviewed: ${entry.message}`;
    await writeFile(baseline, `${JSON.stringify(doc, null, 2)}\n`);
    expect(await readFile(baseline, 'utf8')).not.toBe(text);
    await agreed(root);
    expect(await entries(root)).toEqual(kept);
  });

  it('reports as without it when evidence records, or the files they depend on outside the work item, change', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': [
        // One node, whose gate is the evidence.
        'workflow:',
        '  graph: {start: verified, nodes: [{id: verified, phase: verification, actor: agent, produces: requirements.md, gate: [{checksPass: true}]}], edges: []}',
        'verification:',
        '  checks:',
        '    - {id: unit, argv: [node, -e, "0"], covers: [AC1], paths: ["src/**"], timeoutSeconds: 60}',
        '',
      ].join('\n'),
      'src/greet.mjs': 'export const greet = () => "Hello";\n',
      'docs/specs/greet/requirements.md': '# Requirements\n\n## Acceptance criteria\n\n1. WHEN asked THEN the system SHALL greet.\n',
    });
    await git(root, ['init', '-q']);
    await git(root, ['add', '-A']);
    await git(root, ['commit', '-qm', 'greeter']);
    await changes(root, [
      ['a record written', () => runCli(['verify', 'greet'], { cwd: root })],
      ['a file the check depends on', () => writeFile(join(root, 'src/greet.mjs'), 'export const greet = () => "Hi";\n')],
      ['the record edited', async () => {
        const path = join(root, 'docs/specs/greet/evidence/unit.json');
        await writeFile(path, (await readFile(path, 'utf8')).replace('"exitCode": 0', '"exitCode": 1'));
      }],
    ]);
  });

  it('ignores and rewrites an entry that is corrupt, of another key, or not a report entry for its work item', async () => {
    const root = await repo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/a/requirements.md': LOCKED, 'docs/specs/a/tasks.md': TASKS_OPEN });
    const expected = await agreed(root);
    const [name] = await entries(root);
    const path = join(root, RESULTS_DIR, name as string);
    const good = await readFile(path, 'utf8');
    const entry = JSON.parse(good) as { key: string; item: Record<string, unknown> };
    const passing = { ...entry.item, ok: true, findings: [] };
    const corrupt = [
      'not JSON',
      good.slice(0, -10),
      JSON.stringify({ key: 'f'.repeat(64), item: passing }),
      JSON.stringify({ item: passing }),
      JSON.stringify({ key: entry.key, item: { ...entry.item, workItem: 'b' } }),
      JSON.stringify({ key: entry.key, item: { ...entry.item, findings: 'none' } }),
      JSON.stringify({ key: entry.key, item: { ...entry.item, findings: [{ ruleId: 'no-such-rule', severity: 'error', message: '', file: '', url: '' }] } }),
      JSON.stringify({ key: entry.key, item: { ...entry.item, artifacts: { 'tasks.md': { status: 3 } } } }),
      JSON.stringify({ key: entry.key, item: { ...entry.item, extra: true } }),
    ];
    for (const bytes of corrupt) {
      await writeFile(path, bytes);
      const out = await report(root, '--format', 'json');
      expect(out.stdout).toBe(expected);
      expect(await readFile(path, 'utf8')).toBe(good);
    }
    // Hostile: a FIFO would block a plain read for ever; a link to a forged passing entry is not followed.
    await rm(path);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    expect((await report(root, '--format', 'json')).stdout).toBe(expected);
    const forged = join(root, 'forged.json');
    await writeFile(forged, JSON.stringify({ key: entry.key, item: passing }));
    await rm(path);
    await symlink(forged, path);
    expect((await report(root, '--format', 'json')).stdout).toBe(expected);
  });

  it('is not used where approvals come from pull-request reviews', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': `github:\n  repo: acme/app\n  port: gh\napprovals:\n  source: github\n${graphConfig()}`,
      'docs/specs/a/requirements.md': LOCKED,
      'docs/specs/a/tasks.md': TASKS_OPEN,
    });
    await agreed(root);
    expect(await entries(root)).toEqual([]);
  });
});

describe('the whole results `check` and the harness hooks keep', () => {
  const item = { '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/a/requirements.md': LOCKED, 'docs/specs/a/tasks.md': TASKS_OPEN };
  const check = (root: string, ...args: string[]) => runCli(['check', 'a', '--repo', root, '--format', 'json', ...args], { cwd: root });
  const context = async (root: string, env: Record<string, string> = {}) =>
    runCli(['hook', 'UserPromptSubmit', '--harness', 'claude', '--repo', root, '--work-item', 'a'], { cwd: root, env, input: await payload('claude', 'user-prompt-submit', { cwd: root }) });

  it('give a check and a hook\'s context byte-identical to those read without them, and a kept result reads no facts', async () => {
    const root = await repo(item);
    const fresh = await check(root, '--no-cache');
    const freshContext = await context(root, { CI: 'true' });
    expect(await entries(root)).toEqual([]);
    for (let run = 0; run < 2; run += 1) {
      const out = await check(root);
      expect([out.code, out.stdout, out.stderr]).toEqual([fresh.code, fresh.stdout, fresh.stderr]);
      const hooked = await context(root);
      expect([hooked.code, hooked.stdout, hooked.stderr]).toEqual([freshContext.code, freshContext.stdout, freshContext.stderr]);
    }
    // One whole result, which both read; with it kept, the artifacts' facts are not even looked for.
    expect((await entries(root)).length).toBe(1);
    await rm(join(root, CACHE_DIR), { recursive: true });
    expect((await check(root)).stdout).toBe(fresh.stdout);
    expect((await context(root)).stdout).toBe(freshContext.stdout);
    expect(existsSync(join(root, CACHE_DIR))).toBe(false);
    // An edit is evaluated afresh, under a key of its own.
    await writeFiles(root, { 'docs/specs/a/tasks.md': TASKS_OPEN.replace('- [ ] Test', '- [x] Test') });
    const edited = await check(root);
    expect(edited.stdout).toBe((await check(root, '--no-cache')).stdout);
    expect(edited.stdout).not.toBe(fresh.stdout);
    expect((await entries(root)).length).toBe(2);
  });

  it('apply a baseline to a kept result by the line digests kept with it: as without the cache, and reading no facts', async () => {
    const root = await repo({ ...item, 'docs/specs/a/design.md': '# Design\n\nTBD\n' });
    await runCli(['baseline', '--repo', root], { cwd: root });
    // A finding the baseline does not hold, beside those it does.
    await writeFiles(root, { 'docs/specs/a/tasks.md': `${TASKS_OPEN}- [ ] Ship the greeting\n` });
    const fresh = await check(root, '--no-cache');
    expect(JSON.parse(fresh.stdout).findings.filter((d: { baselined?: boolean }) => d.baselined)).not.toEqual([]);
    expect(JSON.parse(fresh.stdout).findings.filter((d: { baselined?: boolean }) => !d.baselined)).not.toEqual([]);
    expect((await check(root)).stdout).toBe(fresh.stdout);
    await rm(join(root, CACHE_DIR), { recursive: true });
    const kept = await check(root);
    expect([kept.code, kept.stdout]).toEqual([fresh.code, fresh.stdout]);
    expect(existsSync(join(root, CACHE_DIR))).toBe(false);
  });

  it('ignores and rewrites a kept result that is corrupt or not of its shape, or whose nodes name findings it does not have', async () => {
    const root = await repo(item);
    const expected = (await check(root, '--no-cache')).stdout;
    await check(root);
    const [name] = await entries(root);
    const path = join(root, RESULTS_DIR, name as string);
    const good = await readFile(path, 'utf8');
    const entry = JSON.parse(good) as { key: string; result: { nodes: { findings: number[] }[] } & Record<string, unknown>; lineDigests: string[] };
    const passing = { ...entry.result, ok: true, currentNode: null, findings: [], nodes: [] };
    const placed = (at: unknown) => ({ ...entry.result, nodes: entry.result.nodes.map((node) => ({ ...node, findings: [at] })) });
    const corrupt = [
      'not JSON',
      JSON.stringify({ key: 'f'.repeat(64), result: passing }),
      JSON.stringify({ key: entry.key, item: passing }),
      JSON.stringify({ key: entry.key, result: { ...entry.result, nodes: 'none' } }),
      JSON.stringify({ key: entry.key, result: { ...entry.result, nodes: [{ node: 'implementation', status: 'done', findings: [] }] } }),
      JSON.stringify({ key: entry.key, result: { ...entry.result, nodes: [{ node: 'implementation', status: 'current', outcome: 'maybe', findings: [] }] } }),
      JSON.stringify({ key: entry.key, result: placed(99) }),
      JSON.stringify({ key: entry.key, result: placed(-1) }),
      JSON.stringify({ key: entry.key, result: placed('0') }),
      JSON.stringify({ key: entry.key, result: { ...entry.result, workItem: 'b' }, lineDigests: entry.lineDigests }),
      JSON.stringify({ key: entry.key, result: entry.result }),
      JSON.stringify({ key: entry.key, result: entry.result, lineDigests: entry.lineDigests.slice(1) }),
      JSON.stringify({ key: entry.key, result: entry.result, lineDigests: entry.lineDigests.map(() => 'not a digest') }),
    ];
    expect(entry.lineDigests.length).toBeGreaterThan(0);
    for (const bytes of corrupt) {
      await writeFile(path, bytes);
      expect((await check(root)).stdout).toBe(expected);
      expect(await readFile(path, 'utf8')).toBe(good);
    }
  });
});

describe('the encoding of a key', () => {
  // Small values from a small alphabet, so that near misses (a string and a number, undefined and
  // an absent key, an object and a map) are generated often.
  const leaf = fc.oneof(fc.constantFrom('', 'a', '1', 'u', 'null', '"', ',', ':', 'M[', '-0'), fc.constantFrom(0, -0, 1, -1, 1.5, NaN, Infinity, -Infinity), fc.boolean(), fc.constant(null), fc.constant(undefined));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('map')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'u', '"'), tie('value'), { maxKeys: 3 }),
    map: fc.array(fc.tuple(leaf, tie('value')), { maxLength: 3 }).map((entries) => new Map(entries)),
  }));

  it('gives two values one text only when they are the same value', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        if (encode(a) === encode(b)) expect(isDeepStrictEqual(a, b)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells apart what JSON would not, and refuses what it cannot encode', () => {
    const pairs: [unknown, unknown][] = [[{ a: undefined }, {}], [[undefined], [null]], ['1', 1], [0, -0], [NaN, 'NaN'], [new Map([['a', 1]]), { a: 1 }], [{ a: 1, b: 2 }, { b: 2, a: 1 }]];
    for (const [a, b] of pairs) expect(encode(a)).not.toBe(encode(b));
    class Lazy {}
    const withGetter = Object.defineProperty({}, 'facts', { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, 'records', { value: 1, enumerable: false });
    const bySymbol = { [Symbol('records')]: 1 };
    const sparse: unknown[] = [];
    sparse[1] = 1;
    for (const unkeyable of [new Lazy(), new Date(0), () => 1, Symbol('s'), 1n, withGetter, hidden, bySymbol, sparse, Object.assign([1], { extra: 2 }), { nested: [new Set()] }]) expect(() => encode(unkeyable)).toThrow();
  });
});
