// `verify`, `check` and `proof` on real temporary git repositories, with real checks run as
// child processes: evidence bound to the files it depends on, failing and stale evidence,
// a killed run, secrets in output, and records edited by hand.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { isAlive, withClockAfter } from '../test-support/cli-harness.js';
import { BIN, git, makeRepo, writeFiles } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';

const ITEM = 'docs/specs/greet';
// A small lifecycle: requirements, then the two evidence gates.
const GRAPH = [
  'workflow:',
  '  graph:',
  '    start: requirements',
  '    nodes:',
  '      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md}',
  '      - {id: verification, phase: verification, actor: agent, gate: [{checksPass: true}]}',
  '      - {id: evidence, phase: needs-review, actor: agent, gate: [{criteriaVerified: true}]}',
  '    edges:',
  '      - {from: requirements, to: verification, on: pass}',
  '      - {from: verification, to: evidence, on: pass}',
].join('\n');

const CHECKS = [
  'verification:',
  '  checks:',
  '    - id: unit',
  '      argv: [node, --test, test/]',
  '      covers: [AC1, AC2]',
  '      paths: ["src/**", "test/**"]',
  '      timeoutSeconds: 60',
].join('\n');

const FILES = {
  'src/greet.mjs': "export const greet = (name) => `Hello, ${name ?? 'world'}!`;\n",
  'test/greet.test.mjs': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert';",
    "import { greet } from '../src/greet.mjs';",
    "test('greets by name', () => assert.equal(greet('Ann'), 'Hello, Ann!'));",
    "test('greets the world', () => assert.equal(greet(), 'Hello, world!'));",
    '',
  ].join('\n'),
  'README.md': '# Greeter\n',
  [`${ITEM}/requirements.md`]: '# Requirements\n\n## Acceptance criteria\n\n1. WHEN a name is given THEN the system SHALL greet it.\n2. IF no name is given THEN the system SHALL greet the world.\n',
};

async function project(config = `${GRAPH}\n${CHECKS}\n`, files: Record<string, string> = {}): Promise<string> {
  const dir = await makeRepo({ '.the-loop/harness-config.yaml': config, ...FILES, ...files });
  await git(dir, ['init', '-q']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-qm', 'greeter']);
  return dir;
}

const run = (argv: readonly string[], cwd: string) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS });
const json = async (argv: readonly string[], cwd: string) => {
  const out = await run([...argv, '--format', 'json'], cwd);
  return { code: out.code, doc: JSON.parse(out.stdout) as Record<string, unknown>, stderr: out.stderr };
};
const findings = async (cwd: string) => {
  const { doc } = await json(['check', 'greet'], cwd);
  return (doc['findings'] as { ruleId: string; file: string; message: string }[]).map((f) => `${f.ruleId} ${f.file}`);
};
const criteria = async (cwd: string) => {
  const { code, doc } = await json(['proof', 'greet'], cwd);
  return { code, verdict: doc['verdict'], statuses: Object.fromEntries((doc['criteria'] as { id: string; status: string }[]).map((c) => [c.id, c.status])) };
};
// A record as JSON, loosely typed: the tests edit it the way a person with an editor would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const record = async (cwd: string, check = 'unit') => JSON.parse(await readFile(join(cwd, ITEM, 'evidence', `${check}.json`), 'utf8')) as Record<string, any>;

describe('the-loop verify', () => {
  it('records a passing run bound to its files, and proof says COMPLETE with every criterion VERIFIED', async () => {
    const dir = await project();
    const { code, doc } = await json(['verify', 'greet'], dir);
    expect(code).toBe(0);
    expect(doc).toMatchObject({ schemaVersion: 1, workItem: 'greet', ok: true, checks: [{ id: 'unit', status: 'current', exitCode: 0, record: `${ITEM}/evidence/unit.json`, reasons: [] }] });
    const written = await record(dir);
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    expect(written).toMatchObject({
      schemaVersion: 1,
      kind: 'evidence.v1',
      workItem: 'greet',
      check: { id: 'unit', source: 'config', argv: ['node', '--test', 'test/'], expectExitCode: 0, covers: ['AC1', 'AC2'], paths: ['src/**', 'test/**'] },
      run: { exitCode: 0, passed: true, timedOut: false, spawnError: null },
      git: { commit: head, dirty: false },
      tools: { 'the-loop': expect.any(String) },
      environment: { os: `${process.platform}-${process.arch}`, node: process.version },
    });
    expect(Object.keys(written['dependencies'].files)).toEqual(['src/greet.mjs', 'test/greet.test.mjs']);
    expect(written['output'].stdout.excerpt).toContain('pass 2');
    expect(await findings(dir)).toEqual([]);
    expect(await criteria(dir)).toEqual({ code: 0, verdict: 'COMPLETE', statuses: { AC1: 'VERIFIED', AC2: 'VERIFIED' } });
  });

  it('keeps evidence current when an unrelated file changes, and stale when a file it depends on changes', async () => {
    const dir = await project();
    expect((await run(['verify', 'greet'], dir)).code).toBe(0);
    await writeFile(join(dir, 'README.md'), '# Greeter, now documented\n');
    await writeFiles(dir, { 'docs/notes.md': 'an untracked note\n' });
    expect(await findings(dir)).toEqual([]);
    expect((await criteria(dir)).verdict).toBe('COMPLETE');

    await writeFile(join(dir, 'src/greet.mjs'), "export const greet = (name) => `Hi, ${name ?? 'world'}!`;\n");
    const { doc } = await json(['check', 'greet'], dir);
    const stale = (doc['findings'] as { ruleId: string; message: string }[]).filter((f) => f.ruleId === 'evidence-stale');
    expect(stale[0]?.message).toBe('Evidence for check "unit" is stale: 1 file it depends on changed: src/greet.mjs (changed).');
    expect(await criteria(dir)).toEqual({ code: 1, verdict: 'INCOMPLETE', statuses: { AC1: 'UNVERIFIED', AC2: 'UNVERIFIED' } });
  });

  it('depends on every file git does not ignore outside the spec root when a check declares no paths', async () => {
    const dir = await project(`${GRAPH}\n${CHECKS.replace('      paths: ["src/**", "test/**"]\n', '')}\n`, { '.gitignore': 'build/\n' });
    expect((await run(['verify', 'greet'], dir)).code).toBe(0);
    // the-loop's own files, the spec folder and ignored files are not dependencies.
    await writeFiles(dir, { [`${ITEM}/execution-log.md`]: '---\nphase: needs-review\n---\n# Log\n', 'build/out.js': 'x\n' });
    expect(await findings(dir)).toEqual([]);
    await writeFiles(dir, { 'notes.txt': 'a new file\n' });
    // The log claims the evidence node, so it is judged too: each criterion, at its line.
    expect(await findings(dir)).toEqual([`evidence-stale ${ITEM}/evidence/unit.json`, `phase-mismatch ${ITEM}/execution-log.md`, `evidence-stale ${ITEM}/requirements.md`, `evidence-stale ${ITEM}/requirements.md`]);
  });

  it('records a failing check, exits 1, and the criteria it covers are UNVERIFIED', async () => {
    const dir = await project();
    await writeFile(join(dir, 'src/greet.mjs'), 'export const greet = () => "Hello";\n');
    const { code, doc } = await json(['verify', 'greet'], dir);
    expect(code).toBe(1);
    expect(doc).toMatchObject({ ok: false, checks: [{ id: 'unit', status: 'failing', exitCode: 1, reasons: ['exit 1 (expected 0)'] }] });
    expect((await record(dir))['output'].stdout.excerpt).toContain('fail 2');
    // The walk stops at the failing verification node; the criteria show it in the proof.
    expect(await findings(dir)).toEqual([`evidence-failing ${ITEM}/evidence/unit.json`]);
    expect(await criteria(dir)).toEqual({ code: 1, verdict: 'INCOMPLETE', statuses: { AC1: 'UNVERIFIED', AC2: 'UNVERIFIED' } });
  });

  it('kills a check at its timeout, with whatever it started, and records the run as failing', async () => {
    // The check starts a helper, says so (the pid file appears whole, by a rename), and never exits.
    const aside = await mkdtemp(join(tmpdir(), 'the-loop-hang-'));
    const pidFile = join(aside, 'helper.pid');
    const hang = `const helper = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(`${pidFile}.part`)}, String(helper.pid)); require('node:fs').renameSync(${JSON.stringify(`${pidFile}.part`)}, ${JSON.stringify(pidFile)}); setInterval(() => {}, 1000);`;
    const config = `${GRAPH}\nverification:\n  checks:\n    - {id: hang, argv: [node, hang.cjs], timeoutSeconds: 1, covers: [AC1]}\n`;
    const dir = await project(config, { 'hang.cjs': hang });
    const { code, doc } = await withClockAfter(pidFile, 1000, () => json(['verify', 'greet'], dir));
    expect(code).toBe(1);
    expect(doc).toMatchObject({ checks: [{ id: 'hang', status: 'failing', reasons: ['timed out after 1 s'] }] });
    expect((await record(dir, 'hang'))['run']).toMatchObject({ timedOut: true, passed: false });
    // SIGKILL is delivered at once; a loaded machine may take a moment to tear the process down.
    const helper = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => isAlive(helper), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it('never writes a secret the check printed, in the record or anywhere beside it', async () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const script = [
      `console.log('token ${secret}');`,
      "console.error('-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7bq\\n-----END RSA PRIVATE KEY-----');",
      "console.log('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');",
    ].join('\n');
    const dir = await project(`${GRAPH}\nverification:\n  checks:\n    - {id: leaky, argv: [node, leak.mjs], covers: [AC1, AC2]}\n`, { 'leak.mjs': script });
    const verify = await run(['verify', 'greet', '--format', 'json'], dir);
    expect(verify.stdout).not.toContain(secret);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true });
    const folder = join(dir, ITEM, 'evidence');
    for (const name of await readdir(folder)) {
      const text = await readFile(join(folder, name), 'utf8');
      expect(text).not.toContain(secret);
      expect(text).not.toContain('MIIEowIBAAKCAQEA7bq');
      expect(text).not.toContain('wJalrXUtnFEMI');
    }
    const written = await record(dir, 'leaky');
    expect(written['output']).toMatchObject({ redactions: 3, stdout: { excerpt: 'token [REDACTED:github-token]\nAWS_SECRET_ACCESS_KEY=[REDACTED:assignment]\n' }, stderr: { excerpt: '[REDACTED:private-key]\n' } });
  });

  it('rejects a record whose exit code was edited, and one whose output no longer matches its digest', async () => {
    const dir = await project();
    await writeFile(join(dir, 'src/greet.mjs'), 'export const greet = () => "Hello";\n');
    expect((await run(['verify', 'greet'], dir)).code).toBe(1);
    const path = join(dir, ITEM, 'evidence/unit.json');
    const edited = await record(dir);
    edited['run'].exitCode = 0;
    edited['run'].passed = true;
    await writeFile(path, JSON.stringify(edited, null, 2));
    const { doc } = await json(['check', 'greet'], dir);
    const invalid = (doc['findings'] as { ruleId: string; file: string; message: string }[]).find((f) => f.file.endsWith('unit.json'));
    expect(invalid).toMatchObject({ ruleId: 'evidence-invalid', message: 'The evidence record of check "unit" is rejected: its content does not match its recordDigest: it was edited after the-loop wrote it.' });
    expect(await criteria(dir)).toMatchObject({ code: 1, verdict: 'INCOMPLETE', statuses: { AC1: 'UNVERIFIED', AC2: 'UNVERIFIED' } });

    edited['run'].exitCode = 1;
    edited['run'].passed = false;
    edited['output'].stdout.excerpt = 'all tests pass\n';
    await writeFile(path, JSON.stringify(edited, null, 2));
    const again = await json(['check', 'greet'], dir);
    expect((again.doc['findings'] as { message: string }[]).map((f) => f.message)).toContain('The evidence record of check "unit" is rejected: its stdout digest does not match the stdout it records.');
  });

  it('leaves no partial record when verify is killed (SIGKILL) while a check runs: the earlier record is untouched', async () => {
    const marker = 'started.txt';
    // The check writes its pid whole, by a rename: the test never reads a file half written.
    const config = `${GRAPH}\nverification:\n  checks:\n    - {id: slow, argv: [node, -e, "const fs = require('fs'); fs.writeFileSync('pid.tmp', String(process.pid)); fs.renameSync('pid.tmp', '${marker}'); setInterval(() => {}, 1000)"], covers: [AC1, AC2]}\n`;
    const dir = await project(config);
    const folder = join(dir, ITEM, 'evidence');
    await writeFiles(dir, { [`${ITEM}/evidence/slow.json`]: '{"earlier": "record"}\n' });
    const before = await readdir(folder);
    const child = spawn(process.execPath, [BIN, 'verify', 'greet'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Wait for the check to say it started: the run is in flight.
    await new Promise<void>((resolve) => {
      const poll = () => (existsSync(join(dir, marker)) ? resolve() : setImmediate(poll));
      poll();
    });
    const checkPid = Number(await readFile(join(dir, marker), 'utf8'));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The check outlives verify (its process group is its own): end it, or it is left running.
    expect(checkPid, 'the check wrote its pid').toBeGreaterThan(0);
    process.kill(-checkPid, 'SIGKILL');
    expect(await readdir(folder)).toEqual(before);
    expect(await readFile(join(folder, 'slow.json'), 'utf8')).toBe('{"earlier": "record"}\n');
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 2 with nothing run: no check declared, an unknown --check, no git repository', async () => {
    const none = await project(`${GRAPH}\n`);
    expect(await run(['verify', 'greet'], none)).toMatchObject({ code: 2, stderr: expect.stringContaining('no verification check applies to greet') });
    const dir = await project();
    expect(await run(['verify', 'greet', '--check', 'e2e'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('no check "e2e" applies to greet; the checks are: unit') });
    const bare = await makeRepo({ '.the-loop/harness-config.yaml': `${GRAPH}\n${CHECKS}\n`, ...FILES });
    expect(await run(['verify', 'greet'], bare)).toMatchObject({ code: 2, stderr: expect.stringContaining('is not in a git repository') });
    expect(existsSync(join(bare, ITEM, 'evidence'))).toBe(false);
  });

  it('refuses to run (exit 2) while the testing plan\'s block is invalid, and check shows where', async () => {
    const dir = await project(undefined, { [`${ITEM}/testing-plan.md`]: '---\nverification:\n  skip:\n    unit: TBD\n---\n# Testing plan\n' });
    const out = await run(['verify', 'greet'], dir);
    expect(out).toMatchObject({ code: 2, stdout: '' });
    expect(out.stderr).toContain(`${ITEM}/testing-plan.md:4:11  The testing plan's verification block is invalid: verification.skip.unit: must say why (a placeholder is not a reason).`);
    expect(existsSync(join(dir, ITEM, 'evidence'))).toBe(false);
    expect(await findings(dir)).toContain(`front-matter-invalid ${ITEM}/testing-plan.md`);
  });

  it('runs the checks a testing plan adds and skips, and proof names where each came from', async () => {
    const plan = [
      '---',
      'verification:',
      '  checks:',
      '    - {use: unit, covers: [AC1]}',
      '    - {id: world, argv: [node, -e, "process.exit(0)"], covers: [AC2], paths: [src/**]}',
      '---',
      '# Testing plan',
      '',
    ].join('\n');
    const dir = await project(undefined, { [`${ITEM}/testing-plan.md`]: plan });
    const { doc } = await json(['verify', 'greet'], dir);
    expect((doc['checks'] as { id: string }[]).map((c) => c.id)).toEqual(['unit', 'world']);
    const proof = await json(['proof', 'greet'], dir);
    expect(proof.doc).toMatchObject({ verdict: 'COMPLETE', criteria: [{ id: 'AC1', evidence: ['unit'] }, { id: 'AC2', evidence: ['world'] }] });
    expect((proof.doc['checks'] as { id: string; source: string }[]).map((c) => [c.id, c.source])).toEqual([['unit', 'config'], ['world', 'testing-plan.md']]);
  });
});
