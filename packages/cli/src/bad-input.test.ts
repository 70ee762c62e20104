import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli.js';

// Bad input in temp repositories: every case ends in a clear message naming the file (and
// line) and a non-zero exit, never a crash and never a pass. The inputs a process could die of
// (sizes, lines, nesting), --help and the machine output's exit codes go to the built binary
// as a real child process; the rest run the same command in this process.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(root, 'packages/cli/bin/the-loop.cjs');
const temps: string[] = [];

beforeAll(() => {
  // The test script builds first; a single-file run builds here once.
  if (!existsSync(join(root, 'packages/cli/dist/the-loop.cjs'))) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  }
});

afterAll(async () => {
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// Never a crash: no internal error and no stack trace, whatever the input.
function whole(result: Run): Run {
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  return result;
}

/** The built binary, as a child process. */
function runBuilt(cwd: string, ...args: string[]): Run {
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, shell: false });
  return whole({ code: child.status, stdout: child.stdout, stderr: child.stderr });
}

/** The same command in this process. */
async function run(cwd: string, ...args: string[]): Promise<Run> {
  return whole(await runCli(args, { cwd }));
}

/** A temp repository holding `files` (relative path → text or bytes). */
async function repo(files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'the-loop-bad-input-'));
  temps.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

interface Finding {
  ruleId: string;
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** The one JSON document a command printed. */
function json(result: Run): { schemaVersion: number; findings: Finding[]; currentNode: string | null; ok: boolean } {
  return JSON.parse(result.stdout);
}

const SPEC = 'docs/specs/item';
// A one-node graph an item can pass offline, so an exit code of 0 can be compared too.
const ONE_NODE = ['workflow:', '  graph:', '    start: write', '    nodes:', '      - {id: write, phase: write, actor: agent, produces: notes.md, gate: [{sections: [Summary]}]}', '    edges: []', ''].join('\n');

describe('check: unreadable or broken artifacts are findings with the file named, exit 1', () => {
  it('malformed front-matter YAML: front-matter-invalid at its line', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: '---\ntitle: x\nstatus: [unclosed\n---\n# R\n' });
    const result = await run(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    expect(json(result).currentNode).toBe('requirements-definition');
    expect(json(result).findings.filter((f) => f.ruleId === 'front-matter-invalid').map((f) => [f.file, f.line])).toEqual([[`${SPEC}/requirements.md`, 3]]);
    const table = await run(dir, 'check', 'item');
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(new RegExp(`${SPEC}/requirements\\.md:3:\\d+  front-matter-invalid`));
  });

  it.each([
    ['a binary file', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]), /binary/],
    ['non-UTF-8 bytes', Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), /not valid UTF-8/],
  ])('%s: artifact-unreadable', async (_label, bytes, reason) => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: bytes });
    const result = await run(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    const [finding] = json(result).findings;
    expect(finding).toMatchObject({ ruleId: 'artifact-unreadable', file: `${SPEC}/requirements.md` });
    expect(finding?.message).toMatch(reason);
  });

  it('an empty file: artifact-empty at 1:1', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: '' });
    const result = await run(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    expect(json(result).findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}`)).toEqual([`${SPEC}/requirements.md:1:1 artifact-empty`]);
  });

  it('a 10 MB file is refused by its size, not parsed', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: `# R\n${'a'.repeat(10 * 1024 * 1024)}\n` });
    const result = runBuilt(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    expect(json(result).findings[0]).toMatchObject({ ruleId: 'artifact-unreadable', file: `${SPEC}/requirements.md` });
    expect(json(result).findings[0]?.message).toMatch(/MB/);
  });

  it('a line no prose has (300,000 nested brackets) is refused with its line, not handed to the parser', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: `# R\n\n${'['.repeat(150_000)}${']'.repeat(150_000)}\n` });
    const result = runBuilt(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    const [finding] = json(result).findings;
    expect(finding).toMatchObject({ ruleId: 'artifact-unreadable', file: `${SPEC}/requirements.md` });
    expect(finding?.message).toContain('line 3 is 300000 characters long');
  });

  it('a file of thousands of separate lists (a shape the parser is quadratic on) is refused by its line count', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: '# a\n\n- x\n- y\n'.repeat(5_000) });
    const result = runBuilt(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    const [finding] = json(result).findings;
    expect(finding).toMatchObject({ ruleId: 'artifact-unreadable', file: `${SPEC}/requirements.md` });
    expect(finding?.message).toContain('it has 20001 lines');
  });

  it('the line limits are exact: 10,000 lines and lines of 10,000 characters are read, one more is refused', async () => {
    const unreadable = async (text: string) => {
      const dir = await repo({ [`${SPEC}/requirements.md`]: text });
      const result = await run(dir, 'check', 'item', '--format', 'json');
      return json(result).findings.filter((f) => f.ruleId === 'artifact-unreadable').map((f) => f.message);
    };
    expect(await unreadable(`# R\n\n${'x'.repeat(10_000)}\n`)).toEqual([]);
    expect((await unreadable(`# R\n\n${'x'.repeat(10_001)}\n`))[0]).toContain('line 3 is 10001 characters long');
    expect(await unreadable(`# R${'\n'.repeat(9_999)}`)).toEqual([]);
    expect((await unreadable(`# R${'\n'.repeat(10_000)}`))[0]).toContain('it has 10001 lines');
  });

  it('a symlink loop: artifact-unreadable naming each file of the loop', async () => {
    const dir = await repo({ [`${SPEC}/notes.txt`]: 'x' });
    await symlink('design.md', join(dir, SPEC, 'requirements.md'));
    await symlink('requirements.md', join(dir, SPEC, 'design.md'));
    const result = await run(dir, 'check', 'item', '--format', 'json');
    expect(result.code).toBe(1);
    expect(json(result).findings.filter((f) => f.ruleId === 'artifact-unreadable').map((f) => [f.file, /loop/.test(f.message)])).toEqual([
      [`${SPEC}/design.md`, true],
      [`${SPEC}/requirements.md`, true],
    ]);
  });
});

describe('configuration errors: exit 2, file:line:col on stderr, nothing on stdout', () => {
  it('malformed .the-loop/harness-config.yaml', async () => {
    const dir = await repo({ '.the-loop/harness-config.yaml': 'workflow:\n  specDir: x: y\n', [`${SPEC}/requirements.md`]: '# R\n' });
    for (const args of [['check', 'item'], ['check', 'item', '--format', 'json'], ['report']]) {
      const result = await run(dir, ...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('.the-loop/harness-config.yaml:2:12');
    }
  });

  it('a configuration that is not UTF-8 is refused, not read with replacement characters', async () => {
    const dir = await repo({ '.the-loop/harness-config.yaml': Uint8Array.from([...Buffer.from('workflow:\n  specDir: caf'), 0xe9, 0x0a]), [`${SPEC}/requirements.md`]: '# R\n' });
    const result = await run(dir, 'check', 'item');
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toContain('.the-loop/harness-config.yaml: it is not valid UTF-8');
  });

  it('a `sectons:` typo in workflow.graph names its line and the likely key', async () => {
    const config = ['workflow:', '  graph:', '    start: a', '    nodes:', '      - id: a', '        phase: a', '        actor: agent', '        sectons: [Summary]', '    edges: []', ''].join('\n');
    const dir = await repo({ '.the-loop/harness-config.yaml': config, [`${SPEC}/requirements.md`]: '# R\n' });
    const result = await run(dir, 'check', 'item');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/\.the-loop\/harness-config\.yaml:8:\d+ .*unknown key "sectons".*did you mean "sections"/);
  });

  it('a missing spec root, for check and for report', async () => {
    const dir = await repo({ 'README.md': '# repo\n' });
    for (const args of [['check', 'item'], ['report']]) {
      const result = await run(dir, ...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/spec root docs\/specs does not exist/);
    }
  });
});

describe('usage errors: exit 2, nothing evaluated', () => {
  it('`check ../x` is refused as a path outside the spec root', async () => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: '# R\n', 'docs/x/requirements.md': '# R\n' });
    const result = await run(dir, 'check', '../x');
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(/"\.\.\/x" is not a work-item id/);
  });

  it('an unknown id lists the known ids', async () => {
    const dir = await repo({ 'docs/specs/alpha/requirements.md': '# A\n', 'docs/specs/beta/requirements.md': '# B\n' });
    const result = await run(dir, 'check', 'gamma');
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(/no work item "gamma".*Known work items: alpha, beta/);
  });

  it.each([
    [['check', 'item', '-m', 'x']],
    [['check', 'item', '--bogus']],
    [['report', '--bogus']],
    [['check', 'item', '--format', 'yaml']],
    [['frobnicate']],
  ])('%j', async (args) => {
    const dir = await repo({ [`${SPEC}/requirements.md`]: '# R\n' });
    const result = await run(dir, ...args);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(/^the-loop: /);
  });

  it('--help exits 0 with the usage on stdout, for the CLI and for each command', async () => {
    const dir = await repo();
    for (const args of [['--help'], ['check', '--help'], ['report', '--help']]) {
      const result = runBuilt(dir, ...args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/Usage: the-loop/);
    }
  });
});

describe('report: spec roots with nothing in them', () => {
  it('an empty spec root is exit 2, unless --allow-empty', async () => {
    const dir = await repo();
    await mkdir(join(dir, 'docs/specs'), { recursive: true });
    const refused = await run(dir, 'report');
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(/holds no work items/);
    const allowed = await run(dir, 'report', '--allow-empty', '--format', 'json');
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ schemaVersion: 1, workItems: 0, items: [] });
  });

  it('an index.md beside the work items is not counted as one', async () => {
    const dir = await repo({ 'docs/specs/index.md': '# Index\n', 'docs/specs/alpha/requirements.md': '# A\n', 'docs/specs/beta/bugfix.md': '# B\n' });
    const result = await run(dir, 'report', '--format', 'json');
    const report = JSON.parse(result.stdout);
    expect([report.workItems, report.items.map((i: { workItem: string }) => i.workItem)]).toEqual([2, ['alpha', 'beta']]);
  });

  it('a folder whose name is not a work-item id is left out, and stderr says so', async () => {
    const dir = await repo({ 'docs/specs/alpha/requirements.md': '# A\n', 'docs/specs/my spec/requirements.md': '# B\n' });
    const result = await run(dir, 'report', '--format', 'json');
    expect(JSON.parse(result.stdout).items.map((i: { workItem: string }) => i.workItem)).toEqual(['alpha']);
    expect(result.stderr).toContain('skipped docs/specs/my spec: "my spec" is not a work-item id');
  });
});

describe('machine output: one JSON document with schemaVersion 1, the same exit code as the table', () => {
  it.each([
    ['an unmet item', { [`${SPEC}/notes.md`]: '# Notes\n## Summary\n<!-- later -->\n' }, 1],
    ['a passing item', { [`${SPEC}/notes.md`]: '# Notes\n## Summary\nShipped.\n' }, 0],
  ])('check, %s', async (_label, files, code) => {
    const dir = await repo({ '.the-loop/harness-config.yaml': ONE_NODE, ...files });
    const asJson = runBuilt(dir, 'check', 'item', '--format', 'json');
    const asTable = runBuilt(dir, 'check', 'item');
    expect([asJson.code, asTable.code]).toEqual([code, code]);
    const document = JSON.parse(asJson.stdout);
    expect(document.schemaVersion).toBe(1);
    expect(document.ok).toBe(code === 0);
    expect(asJson.stderr).toBe('');
  });

  it.each([
    ['an unmet item', '<!-- later -->', 1],
    ['a passing item', 'Shipped.', 0],
  ])('report, %s', async (_label, summary, code) => {
    const dir = await repo({ '.the-loop/harness-config.yaml': ONE_NODE, [`${SPEC}/notes.md`]: `# Notes\n## Summary\n${summary}\n` });
    const asJson = await run(dir, 'report', '--format', 'json');
    const asTable = await run(dir, 'report');
    const asMarkdown = await run(dir, 'report', '--format', 'markdown');
    expect([asJson.code, asTable.code, asMarkdown.code]).toEqual([code, code, code]);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ schemaVersion: 1, workItems: 1, ok: code === 0 });
  });
});
