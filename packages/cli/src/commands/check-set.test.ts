import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { git, graphConfig, LOCKED, makeRepo, runBuiltCli, runCli, TASKS_DONE, TASKS_OPEN, writeFiles } from '../test-support/cli.js';

const SCHEMA = fileURLToPath(new URL('../../../../test-fixtures/sarif/sarif-2.1.0-rtm.5.json', import.meta.url));

const items = {
  '.the-loop/harness-config.yaml': graphConfig(),
  'docs/specs/done/requirements.md': LOCKED,
  'docs/specs/done/tasks.md': TASKS_DONE,
  'docs/specs/open/requirements.md': LOCKED,
  'docs/specs/open/tasks.md': `${TASKS_OPEN}- [ ] Test the greeting\n`,
  'docs/specs/draft/requirements.md': '---\nstatus: draft\n---\n# Requirements, with "quotes", commas: and 100%\n',
};

async function validator() {
  // The published schema has a language-tag pattern that is only valid without the u flag.
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(SCHEMA, 'utf8')));
}

describe('check over a set of work items', () => {
  it('--all --format json checks every item and fails on any', async () => {
    const dir = await makeRepo(items);
    const out = await runCli(['check', '--all', '--format', 'json', '--fail-on', 'block'], { cwd: dir });
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc).toMatchObject({ schemaVersion: 1, specRoot: 'docs/specs', selection: { all: true }, failOn: 'block', ok: false, failing: ['draft', 'open'] });
    expect(doc.results.map((r: { workItem: string }) => r.workItem)).toEqual(['done', 'draft', 'open']);
  });

  it('--all over more work items than it keeps in memory writes what checking each of them gives', async () => {
    // Past IN_MEMORY_ITEMS (128) the rendered results go through a scratch folder, a chunk at a time.
    const files: Record<string, string> = { '.the-loop/harness-config.yaml': graphConfig() };
    const ids = Array.from({ length: 150 }, (_, n) => `item-${String(n).padStart(3, '0')}`);
    for (const [n, id] of ids.entries()) {
      files[`docs/specs/${id}/requirements.md`] = n % 3 === 2 ? '---\nstatus: draft\n---\n# Requirements\n' : LOCKED;
      files[`docs/specs/${id}/tasks.md`] = n % 3 === 0 ? TASKS_DONE : TASKS_OPEN;
    }
    const dir = await makeRepo(files);
    const singles = await Promise.all(ids.map((id) => runCli(['check', id, '--format', 'json'], { cwd: dir })));
    const json = await runCli(['check', '--all', '--format', 'json'], { cwd: dir });
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    // The document as one JSON.stringify writes it, each result as `check <id>` gives it.
    expect(json.stdout).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(doc.results).toEqual(singles.map((single) => { const { schemaVersion: _version, ...result } = JSON.parse(single.stdout); return result; }));
    expect(doc.failing).toEqual(ids.filter((_, n) => singles[n]?.code === 1));
    const tables = await Promise.all(ids.map((id) => runCli(['check', id], { cwd: dir })));
    const table = await runCli(['check', '--all'], { cwd: dir });
    expect(table.stdout).toBe(tables.map((single) => single.stdout).join('\n'));
  });

  it('--all over enough work items to share them between threads prints what one thread prints', async () => {
    // About 25 KB of requirements an item, as in the report's test: long enough for workers to take chunks.
    const body = Array.from({ length: 100 }, (_, i) => `## Part ${i}\n\nThe *service* keeps \`token ${i}\` on the server; every **request** is checked.\n\n| field | rule |\n|---|---|\n| f${i} | kept |\n\n- [x] one\n  - nested\n`).join('\n');
    const files: Record<string, string> = { '.the-loop/harness-config.yaml': graphConfig() };
    for (let n = 0; n < 150; n += 1) {
      const id = `item-${String(n).padStart(3, '0')}`;
      files[`docs/specs/${id}/requirements.md`] = `${LOCKED}\n${body}`;
      files[`docs/specs/${id}/tasks.md`] = n % 3 === 0 ? TASKS_OPEN : TASKS_DONE;
    }
    const dir = await makeRepo(files);
    for (const format of ['json', 'table', 'github']) {
      // From source a set is checked on one thread (after the first format, from the artifact cache,
      // which changes no result); the built CLI without a cache starts its workers at once.
      const one = await runCli(['check', '--all', '--format', format], { cwd: dir });
      const threads = await runBuiltCli(['check', '--all', '--format', format, '--no-cache'], { cwd: dir });
      expect([threads.code, threads.stdout, threads.stderr]).toEqual([one.code, one.stdout, one.stderr]);
    }
    const preload = join(await mkdtemp(join(tmpdir(), 'the-loop-preload-')), 'worker-dies.cjs');
    await writeFile(preload, "if (!require('node:worker_threads').isMainThread) process.exit(3);\n");
    const died = await runBuiltCli(['check', '--all', '--format', 'json', '--no-cache'], { cwd: dir, env: { NODE_OPTIONS: `--require ${preload}` } });
    expect([died.code, died.stdout]).toEqual([2, '']);
    expect(died.stderr).toContain('a check worker exited with code 3 before finishing its work');
  }, 60_000);

  it('--all on an empty spec root is an error unless --allow-empty', async () => {
    const dir = await makeRepo({ 'docs/specs/README.md': '# Specs\n' });
    expect((await runCli(['check', '--all'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['check', '--all', '--allow-empty', '--format', 'json'], { cwd: dir })).code).toBe(0);
  });

  it('keeps the single-id JSON document exactly as before', async () => {
    const dir = await makeRepo(items);
    const doc = JSON.parse((await runCli(['check', 'open', '--format', 'json'], { cwd: dir })).stdout);
    expect(Object.keys(doc)).toEqual(['schemaVersion', 'workItem', 'currentNode', 'ok', 'nodes', 'findings', 'artifacts', 'logPhase']);
  });

  it('takes exactly one selector', async () => {
    const dir = await makeRepo(items);
    expect((await runCli(['check', 'open', '--all'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['check'], { cwd: dir })).code).toBe(2);
  });

  it('--changed-from REF checks only the work items the branch touched; the spec README is not one', async () => {
    const dir = await makeRepo(items);
    await git(dir, ['init', '-q']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'base']);
    await git(dir, ['checkout', '-q', '-b', 'feature']);
    await writeFiles(dir, { 'docs/specs/done/design.md': '# Design\n', 'docs/specs/README.md': '# Index\n', 'src/x.ts': '' });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'touch done']);
    const out = await runCli(['check', '--changed-from', 'main', '--format', 'json', '--fail-on', 'block'], { cwd: dir });
    expect(out.code).toBe(0);
    const doc = JSON.parse(out.stdout);
    expect(doc.selection).toEqual({ changedFrom: 'main' });
    expect(doc.results.map((r: { workItem: string }) => r.workItem)).toEqual(['done']);
    expect(out.stderr).toContain('1 work item changed since main: done');

    const none = await runCli(['check', '--changed-from', 'HEAD', '--format', 'json'], { cwd: dir });
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).results).toEqual([]);

    const badRef = await runCli(['check', '--changed-from', 'no-such-ref'], { cwd: dir });
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('no-such-ref');

    // git must not read the ref as an option of its own: no file is written, the run is refused.
    const optionRef = await runCli(['check', '--changed-from=--output=leak.txt'], { cwd: dir });
    expect(optionRef.code).toBe(2);
    expect(optionRef.stderr).toContain('--changed-from takes a git ref');
    await expect(readdir(dir)).resolves.not.toContainEqual(expect.stringMatching(/^leak/));
  });
});

describe('check --changed-from "" exits 0 having checked nothing', () => {
  it('is refused: an unset CI variable gives an empty ref, and a gate that checked nothing must not pass', async () => {
    const dir = await makeRepo(items);
    await git(dir, ['init', '-q']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'base']);
    for (const empty of ['', '  ']) {
      const unset = await runCli(['check', '--changed-from', empty, '--format', 'json'], { cwd: dir });
      expect([unset.code, unset.stdout]).toEqual([2, '']);
      expect(unset.stderr).toContain('--changed-from is empty');
    }
  });
});

describe('--changed-from in a project below the repository top', () => {
  it('reads changed paths from the project root', async () => {
    const dir = await makeRepo(Object.fromEntries(Object.entries(items).map(([path, text]) => [`app/${path}`, text])));
    await git(dir, ['init', '-q']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'base']);
    await writeFiles(dir, { 'app/docs/specs/open/design.md': '# Design\n', 'docs/specs/open/x.md': 'outside the project\n' });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'touch open']);
    const out = await runCli(['check', '--changed-from', 'HEAD~1', '--repo', 'app', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(out.stdout).results.map((r: { workItem: string }) => r.workItem)).toEqual(['open']);
    expect(out.code).toBe(1);
  });
});

describe('--format sarif', () => {
  it('numbers findings across every work item, whichever thread checked each, in the layout JSON.stringify gives', async () => {
    // A one-node graph whose gate wants evidence and no check declared: each work item gets the
    // same finding on the configuration file, whose fingerprints count through the whole document.
    const body = Array.from({ length: 100 }, (_, i) => `## Part ${i}\n\nThe *service* keeps \`token ${i}\` on the server.\n\n| field | rule |\n|---|---|\n| f${i} | kept |\n`).join('\n');
    const files: Record<string, string> = {
      '.the-loop/harness-config.yaml': 'workflow:\n  graph: {start: verified, nodes: [{id: verified, phase: verification, actor: agent, produces: requirements.md, gate: [{checksPass: true}]}], edges: []}\n',
    };
    for (let n = 0; n < 120; n += 1) files[`docs/specs/item-${String(n).padStart(3, '0')}/requirements.md`] = `${LOCKED}\n${body}`;
    const dir = await makeRepo(files);
    const one = await runCli(['check', '--all', '--format', 'sarif', '--no-cache'], { cwd: dir });
    const threads = await runBuiltCli(['check', '--all', '--format', 'sarif', '--no-cache'], { cwd: dir });
    expect([threads.code, threads.stdout]).toEqual([one.code, one.stdout]);
    const log = JSON.parse(threads.stdout);
    expect(threads.stdout).toBe(`${JSON.stringify(log, null, 2)}\n`);
    expect((await validator())(log)).toBe(true);
    const prints = log.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === 'evidence-missing').map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['theLoopFinding/v1']);
    expect(prints).toHaveLength(120);
    expect(new Set(prints).size).toBe(120);
  }, 60_000);

  it('validates against the SARIF 2.1.0 schema, with rules metadata and stable fingerprints', async () => {
    const dir = await makeRepo(items);
    const out = await runCli(['check', '--all', '--format', 'sarif', '--rules-url', 'https://example.org/the-loop/docs/rules.md'], { cwd: dir });
    expect(out.code).toBe(1);
    const log = JSON.parse(out.stdout);
    const validate = await validator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('the-loop');
    const rule = run.tool.driver.rules.find((r: { id: string }) => r.id === 'tasks-incomplete');
    expect(rule.helpUri).toBe('https://example.org/the-loop/docs/rules.md#tasks-incomplete');
    const tasks = run.results.filter((r: { ruleId: string }) => r.ruleId === 'tasks-incomplete');
    expect(tasks).toHaveLength(2);
    expect(run.tool.driver.rules[tasks[0].ruleIndex].id).toBe('tasks-incomplete');
    expect(tasks[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'docs/specs/open/tasks.md', uriBaseId: '%SRCROOT%' }, region: { startLine: 4, startColumn: 1 } });
    // Two findings with the same text still get distinct fingerprints.
    expect(tasks[0].partialFingerprints['theLoopFinding/v1']).not.toBe(tasks[1].partialFingerprints['theLoopFinding/v1']);

    // Moving a finding down a line keeps its fingerprint.
    await writeFiles(dir, { 'docs/specs/open/tasks.md': `# Tasks\n\nIntro.\n\n${TASKS_OPEN.slice('# Tasks\n\n'.length)}- [ ] Test the greeting\n` });
    const moved = JSON.parse((await runCli(['check', 'open', '--format', 'sarif'], { cwd: dir })).stdout).runs[0].results;
    const movedTasks = moved.filter((r: { ruleId: string }) => r.ruleId === 'tasks-incomplete');
    expect(movedTasks[0].locations[0].physicalLocation.region.startLine).toBe(6);
    expect(movedTasks.map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['theLoopFinding/v1'])).toEqual(tasks.map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['theLoopFinding/v1']));
  });

  it('the default helpUri is an absolute URI too, and an empty set is still a valid log', async () => {
    const dir = await makeRepo({ 'docs/specs/README.md': '#\n' });
    const log = JSON.parse((await runCli(['check', '--all', '--allow-empty', '--format', 'sarif'], { cwd: dir })).stdout);
    expect((await validator())(log)).toBe(true);
    expect(log.runs[0].results).toEqual([]);
    expect((await runCli(['check', '--all', '--rules-url', 'docs/rules.md'], { cwd: dir })).code).toBe(2);
  });
});

describe('--format github', () => {
  it('prints one escaped annotation per finding, errors and warnings apart', async () => {
    const dir = await makeRepo({ ...items, 'docs/specs/open/execution-log.md': '---\nphase: requirements-definition\n---\n# Log\n' });
    const out = await runCli(['check', '--all', '--format', 'github'], { cwd: dir });
    expect(out.code).toBe(1);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toContain('::error file=docs/specs/open/tasks.md,line=4,col=1,title=the-loop tasks-incomplete (open · implementation)::' + lines.find((l) => l.startsWith('::error file=docs/specs/open/tasks.md,line=4'))!.split('::')[2]);
    expect(lines.some((l) => l.startsWith('::warning file=docs/specs/open/execution-log.md,line=2,col=8,title=the-loop phase-mismatch'))).toBe(true);
    expect(lines.every((l) => /^::(error|warning) file=[^,]+(,line=\d+,col=\d+)?,title=[^:]+::[^\n]*$/.test(l))).toBe(true);
    expect(out.stderr).toContain('the-loop: 3 work items checked; blocking: draft, open');
  });

  it('names the first twenty blocking work items in its summary line, and counts the rest', async () => {
    const files: Record<string, string> = {};
    for (let n = 0; n < 25; n += 1) files[`docs/specs/item-${String(n).padStart(2, '0')}/tasks.md`] = TASKS_OPEN;
    const out = await runCli(['check', '--all', '--format', 'github'], { cwd: await makeRepo(files) });
    expect(out.code).toBe(1);
    const named = Array.from({ length: 20 }, (_, n) => `item-${String(n).padStart(2, '0')}`).join(', ');
    expect(out.stderr).toBe(`the-loop: 25 work items checked; blocking: ${named} and 5 more\n`);
  });

  it('under --fail-on block, a finding that only waits on a person is a notice, not an error beside a green run', async () => {
    const dir = await makeRepo({ ...items, '.the-loop/harness-config.yaml': graphConfig({ humanApproval: true }), 'docs/specs/open/tasks.md': TASKS_DONE });
    const block = await runCli(['check', '--all', '--format', 'github', '--fail-on', 'block'], { cwd: dir });
    const waiting = (text: string) => text.split('\n').filter((l) => l.includes('approval-missing'));
    expect(waiting(block.stdout).length).toBeGreaterThan(0);
    expect(waiting(block.stdout).every((l) => l.startsWith('::notice '))).toBe(true);
    const unmet = await runCli(['check', '--all', '--format', 'github', '--fail-on', 'unmet'], { cwd: dir });
    expect(waiting(unmet.stdout).every((l) => l.startsWith('::error '))).toBe(true);
    expect(unmet.code).toBe(1);
    const sarif = JSON.parse((await runCli(['check', '--all', '--format', 'sarif', '--fail-on', 'block'], { cwd: dir })).stdout);
    const levels = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === 'approval-missing').map((r: { level: string }) => r.level);
    expect(levels.length).toBeGreaterThan(0);
    expect(new Set(levels)).toEqual(new Set(['note']));
    expect((await validator())(sarif)).toBe(true);
  });
});
