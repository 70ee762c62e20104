// `init` and `new`: what they write, that they never overwrite, and what they refuse.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHarnessConfig, parseCollaborators } from '@the-loop/core';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { TEMPLATES } from '../scaffold/templates.js';
import { git, makeRepo, writeFiles } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));
async function repo(files: Record<string, string> = {}): Promise<string> {
  const dir = await makeRepo(files);
  temps.push(dir);
  return dir;
}
const run = (cwd: string, ...argv: string[]) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS, env: { PATH: process.env['PATH'], NO_COLOR: '1' } });
const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

// Every file under `dir`, relative, with its text.
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(join(dir, at), { withFileTypes: true })) {
      const path = at === '' ? entry.name : `${at}/${entry.name}`;
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(path);
      else out[path] = await read(dir, path);
    }
  };
  await walk('');
  return out;
}

describe('init', () => {
  it('writes a commented, schema-linked configuration that parses, collaborators and the templates; a second run changes nothing', async () => {
    const dir = await repo();
    const first = await run(dir, 'init');
    expect(first.code).toBe(0);
    const written = await snapshot(dir);
    expect(Object.keys(written).sort()).toEqual(['.the-loop/collaborators.yaml', '.the-loop/harness-config.yaml', ...Object.keys(TEMPLATES['the-loop']).map((n) => `.the-loop/templates/${n}`)].sort());
    const config = written['.the-loop/harness-config.yaml']!;
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/@the-loop/cli/dist/harness-config.schema.json');
    const parsed = parseHarnessConfig('.the-loop/harness-config.yaml', config);
    expect(parsed.ok && [parsed.config.preset, parsed.config.specDir]).toEqual(['the-loop', 'docs/specs']);
    const people = parseCollaborators('.the-loop/collaborators.yaml', written['.the-loop/collaborators.yaml']!);
    expect(people.ok && people.collaborators).toEqual([]);
    expect(first.stdout).toContain('created .the-loop/harness-config.yaml');

    const second = await run(dir, 'init');
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('created');
    expect(second.stdout).toContain('kept    .the-loop/harness-config.yaml');
    expect(await snapshot(dir)).toEqual(written);
  });

  it('never overwrites a file that is there, and writes the ones that are missing', async () => {
    const dir = await repo({ '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: ann, roles: [approver]}\n', '.the-loop/templates/design.md': '# Our design template\n' });
    expect((await run(dir, 'init')).code).toBe(0);
    expect(await read(dir, '.the-loop/collaborators.yaml')).toBe('collaborators:\n  - {login: ann, roles: [approver]}\n');
    expect(await read(dir, '.the-loop/templates/design.md')).toBe('# Our design template\n');
    expect(await read(dir, '.the-loop/templates/tasks.md')).toBe(TEMPLATES['the-loop']['tasks.md']);
  });

  it.each([
    ['kiro', '.kiro/specs/x/tasks.md', ['requirements.md', 'bugfix.md', 'design.md', 'tasks.md']],
    ['spec-kit', '.specify/memory/constitution.md', ['spec.md', 'plan.md', 'tasks.md']],
    ['openspec', 'openspec/project.md', ['proposal.md', 'design.md', 'tasks.md']],
  ])('--preset %s writes that preset and its templates; without --preset the layout is recognised', async (preset, marker, templates) => {
    for (const argv of [['init', '--preset', preset], ['init']]) {
      const dir = await repo({ [marker]: '# x\n' });
      const result = await run(dir, ...argv);
      expect(result.code).toBe(0);
      const parsed = parseHarnessConfig('c', await read(dir, '.the-loop/harness-config.yaml'));
      expect(parsed.ok && parsed.config.preset).toBe(preset);
      expect((await readdir(join(dir, '.the-loop/templates'))).sort()).toEqual([...templates].sort());
      if (argv.length === 1) expect(result.stdout).toContain(`using the ${preset} preset`);
    }
  });

  it('refuses a --preset other than the one the configuration names, writing nothing', async () => {
    const dir = await repo({ '.the-loop/harness-config.yaml': 'workflow:\n  preset: kiro\n' });
    const result = await run(dir, 'init', '--preset', 'openspec');
    expect([result.code, result.stderr]).toEqual([2, 'the-loop: .the-loop/harness-config.yaml already names the kiro preset; change workflow.preset there to switch (nothing was written)\n']);
    expect(Object.keys(await snapshot(dir))).toEqual(['.the-loop/harness-config.yaml']);
  });

  it('writes at the project root from a subfolder', async () => {
    const dir = await repo({ 'src/app/main.ts': '' });
    await git(dir, ['init', '-q']);
    expect((await run(join(dir, 'src/app'), 'init')).code).toBe(0);
    expect(await stat(join(dir, '.the-loop/harness-config.yaml'))).toBeTruthy();
  });
});

describe('new', () => {
  it("creates the work item with the first node's artifact from the repository's template, ids and dates filled in", async () => {
    const dir = await repo();
    await run(dir, 'init');
    await writeFiles(dir, { '.the-loop/templates/requirements.md': '---\nstatus: draft\n---\n# {{id}} ({{date}})\n\n<what is needed>\n' });
    const result = await run(dir, 'new', 'issue-42');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('created docs/specs/issue-42/requirements.md (from .the-loop/templates/requirements.md)\nnext: write it, replacing every <placeholder>; `the-loop check issue-42` lists what is left\n');
    expect(await read(dir, 'docs/specs/issue-42/requirements.md')).toMatch(/^---\nstatus: draft\n---\n# issue-42 \(\d{4}-\d{2}-\d{2}\)\n/);
    expect(await readdir(join(dir, 'docs/specs/issue-42'))).toEqual(['requirements.md']);
  });

  it("--bugfix starts from bugfix.md; without init, the preset's own template is used", async () => {
    const dir = await repo();
    const result = await run(dir, 'new', 'issue-7', '--bugfix');
    expect(result.stdout).toContain("created docs/specs/issue-7/bugfix.md (from the the-loop preset's template)");
    expect(await read(dir, 'docs/specs/issue-7/bugfix.md')).toBe(TEMPLATES['the-loop']['bugfix.md']!.replaceAll('{{id}}', 'issue-7'));
  });

  it.each([
    ['kiro', '.kiro/specs/user-auth/requirements.md'],
    ['spec-kit', 'specs/001-photos/spec.md'],
    ['openspec', 'openspec/changes/add-2fa/proposal.md'],
  ])('with the %s preset, the work item goes where that tool keeps it', async (preset, path) => {
    const dir = await repo({ '.the-loop/harness-config.yaml': `workflow:\n  preset: ${preset}\n` });
    const id = path.split('/').at(-2)!;
    expect((await run(dir, 'new', id)).code).toBe(0);
    expect(await read(dir, path)).not.toContain('{{id}}');
  });

  it('refuses a folder that exists, an invalid id and a --bugfix the graph does not offer, touching nothing', async () => {
    const dir = await repo({ 'docs/specs/issue-1/notes.md': 'mine\n' });
    const before = await snapshot(dir);
    const cases: [string[], string][] = [
      [['new', 'issue-1'], 'the-loop: docs/specs/issue-1 already exists; nothing was touched\n'],
      [['new', '../x'], 'the-loop: "../x" is not a work-item id: it names a path outside the spec root\n'],
      [['new'], 'the-loop: new takes exactly one work-item id, such as `the-loop new issue-42`\n'],
    ];
    for (const [argv, stderr] of cases) expect(await run(dir, ...argv)).toEqual({ code: 2, stdout: '', stderr });
    expect(await snapshot(dir)).toEqual(before);
    const kiro = await repo({ '.the-loop/harness-config.yaml': 'workflow:\n  preset: openspec\n' });
    expect(await run(kiro, 'new', 'add-x', '--bugfix')).toMatchObject({ code: 2, stderr: 'the-loop: --bugfix: the first node ("proposal") writes proposal.md; the graph offers no bugfix artifact there\n' });
    expect(await stat(join(kiro, 'openspec')).catch(() => undefined)).toBeUndefined();
  });

  it('a graph artifact no template names starts as a page that says what to write', async () => {
    const config = 'workflow:\n  graph:\n    start: rfc\n    nodes:\n      - {id: rfc, phase: design, actor: agent, produces: rfc.md}\n    edges: []\n';
    const dir = await repo({ '.the-loop/harness-config.yaml': config });
    expect((await run(dir, 'new', 'rfc-9')).stdout).toContain('(from a blank page: no template names it)');
    expect(await read(dir, 'docs/specs/rfc-9/rfc.md')).toBe('# rfc: rfc-9\n\n<what this artifact must say>\n');
  });
});

describe('the first check after new', () => {
  it('a missing spec root on a repository laid out for another tool names the preset that fits', async () => {
    const dir = await repo({ '.kiro/specs/user-auth/tasks.md': '- [ ] 1. Do it\n' });
    const result = await run(dir, 'report');
    expect(result.stderr).toBe(`the-loop: the spec root docs/specs does not exist in ${dir} (.kiro/specs is there: run \`the-loop init --preset kiro\` to read Kiro's layout)\n`);
  });
});
