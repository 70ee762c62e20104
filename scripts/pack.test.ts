// The published packages, as a user gets them: `pnpm pack` (what a publish runs), then npm
// installs each tarball into a fresh project outside this workspace and the project uses it.
// The CLI tarball has no dependency, so its install needs no registry (`--offline`); core's
// runtime dependencies come from npm's cache, or the registry the first time on a machine.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const temps: string[] = [];
const temp = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `the-loop-${name}-`));
  temps.push(dir);
  return dir;
};
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// A user's shell: PATH and HOME (npm's cache), none of the workspace's npm_* or pnpm settings.
const userEnv: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', LANG: 'C' };

function run(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = userEnv): SpawnSyncReturns<string> {
  const [command, ...args] = argv;
  return spawnSync(command as string, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
}

function ok(argv: readonly string[], cwd: string): string {
  const result = run(argv, cwd);
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function manifestOf(tarball: string): Record<string, unknown> {
  return JSON.parse(ok(['tar', '-xzOf', tarball, 'package/package.json'], root)) as Record<string, unknown>;
}

// One of the installed bundle's code caches as bytes (undefined when there is none): the launcher
// writes one only when there is none or V8 refuses the one there, so a run that leaves it as it
// was ran through it.
function cacheBytes(dist: string, name: string): Buffer | undefined {
  const file = join(dist, name);
  return existsSync(file) ? readFileSync(file) : undefined;
}

// The fingerprint of the Node build the bundle's shipped cache is named for, from a listing of its folder.
function nodeBuild(files: readonly string[]): string {
  const names = files.map((file) => /^the-loop\.cjs\.([0-9a-f]{8})\.cache$/.exec(file)?.[1]).filter((name) => name !== undefined);
  expect(names).toHaveLength(1);
  return names[0] as string;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

// What `tsc -p PROJECT` does, with the checks narrowed to what this package answers for: the
// consumer's code and every declaration file the package ships, strictly; not the declarations of
// its dependencies (valibot's 16,000 lines were three quarters of the time) nor TypeScript's
// default libraries, which their publishers check. Any diagnostic is printed and fails the run.
const TYPE_CHECK = `
import { createRequire } from 'node:module';
const ts = createRequire(import.meta.url)(process.argv[1]);
const file = ts.findConfigFile(process.argv[2], ts.sys.fileExists);
const config = ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\\n')); } });
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checked = program.getSourceFiles().filter((f) => !f.fileName.includes('/node_modules/') || f.fileName.includes('/node_modules/@the-loop/core/'));
if (!checked.some((f) => f.fileName.endsWith('/@the-loop/core/dist/index.d.ts'))) throw new Error('the package declarations are not in the program');
const diagnostics = [...config.errors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSyntacticDiagnostics(), ...checked.flatMap((f) => program.getSemanticDiagnostics(f))];
// Emitting the whole program would check every file first: each of the consumer's files is emitted alone.
if (diagnostics.length === 0) for (const name of config.fileNames) diagnostics.push(...program.emit(program.getSourceFile(name)).diagnostics);
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\\n' };
process.stdout.write(diagnostics.length ? ts.formatDiagnostics(diagnostics, host) : '');
process.exitCode = diagnostics.length ? 2 : 0;
`;

let tarballs: { cli: string; core: string };
beforeAll(() => {
  if (!existsSync(join(root, 'packages/cli/dist/the-loop.cjs'))) throw new Error('build first: node scripts/build.mjs (the test script does)');
  const out = temp('packs');
  const packed = run([process.execPath, join(root, 'scripts/pack.mjs'), out], root, process.env);
  if (packed.status !== 0) throw new Error(`pack failed: ${packed.stderr}`);
  const files = readdirSync(out);
  tarballs = {
    cli: join(out, files.find((f) => f.startsWith('the-loop-cli-')) ?? 'missing-cli'),
    core: join(out, files.find((f) => f.startsWith('the-loop-core-')) ?? 'missing-core'),
  };
}, 180_000);

describe('@the-loop/cli, packed and installed into an unrelated repository', () => {
  it('packs the launcher and the bundles, with no runtime dependency and no workspace: version left', () => {
    const manifest = manifestOf(tarballs.cli);
    expect(manifest['dependencies'] ?? {}).toEqual({});
    expect(manifest['peerDependencies'] ?? {}).toEqual({});
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest['bin']).toEqual({ 'the-loop': './bin/the-loop.cjs' });
    expect(manifest['exports']).toEqual({ '.': './dist/the-loop.cjs' });
    const listed = ok(['tar', '-tzf', tarballs.cli], root).split('\n');
    // Each cache is named for the Node build that wrote it (decision 192): this one's.
    const node = nodeBuild(listed.map((path) => path.slice('package/dist/'.length)));
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/bin/the-loop.cjs',
        'package/dist/the-loop.cjs',
        `package/dist/the-loop.cjs.${node}.cache`,
        `package/dist/the-loop.cjs.many-items.${node}.cache`,
        // The libraries a run loads only when it calls them, beside the bundle, with their caches.
        'package/dist/the-loop-markdown.cjs',
        `package/dist/the-loop-markdown.cjs.many-items.${node}.cache`,
        'package/dist/the-loop-yaml.cjs',
        `package/dist/the-loop-yaml.cjs.${node}.cache`,
        `package/dist/the-loop-yaml.cjs.many-items.${node}.cache`,
        'package/dist/the-loop-json.cjs',
        'package/dist/the-loop-glob.cjs',
        'package/dist/report-worker.cjs',
        'package/dist/harness-config.schema.json',
        'package/README.md',
      ]),
    );
    expect(listed.filter((path) => path.includes('/src/') || path.endsWith('.ts'))).toEqual([]);
  });

  it('npm install -D <tarball> needs no registry, npx the-loop finds the install (from a subfolder too), and it runs init, new, check and hooks install there', () => {
    const project = temp('npm-project');
    ok(['git', 'init', '-q'], project);
    write(project, { 'package.json': JSON.stringify({ name: 'acme-app', version: '1.0.0', private: true }, null, 2) });
    ok(['npm', 'install', '-D', tarballs.cli, '--offline', '--no-audit', '--no-fund'], project);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies['@the-loop/cli']).toMatch(/^file:/);
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@the-loop']);

    expect(ok(['npx', 'the-loop', '--version'], project).trim()).toMatch(/^\d+\.\d+\.\d+/);
    // Where npx found it: the other commands run it there, as the installed hooks do, but for
    // one from a subfolder, which npx finds up the tree (each npx start loads npm).
    const theLoop = join(project, 'node_modules/.bin/the-loop');
    // Each code cache shipped with the package is one the launcher accepts on this Node for its
    // kind of run (a run leaves it as it was); without one, the next run writes it, and the one
    // after keeps it.
    const installed = join(project, 'node_modules/@the-loop/cli/dist');
    const node = nodeBuild(readdirSync(installed));
    const kinds = [
      { cache: `the-loop.cjs.${node}.cache`, argv: ['--version'] },
      { cache: `the-loop.cjs.many-items.${node}.cache`, argv: ['report', '--format', 'json'] },
      { cache: `the-loop.cjs.many-items.${node}.cache`, argv: ['check', '--all'] },
    ];
    for (const { cache, argv } of kinds) {
      const shipped = cacheBytes(installed, cache);
      expect(shipped?.length).toBeGreaterThan(100_000);
      run([theLoop, ...argv], project);
      expect(cacheBytes(installed, cache)?.equals(shipped as Buffer)).toBe(true);
      rmSync(join(installed, cache));
      run([theLoop, ...argv], project);
      const written = cacheBytes(installed, cache);
      expect(written?.length).toBeGreaterThan(0);
      run([theLoop, ...argv], project);
      expect(cacheBytes(installed, cache)?.equals(written as Buffer)).toBe(true);
    }

    ok([theLoop, 'init'], project);
    // The configuration init writes links the JSON Schema the install ships.
    const schemaLine = readFileSync(join(project, '.the-loop/harness-config.yaml'), 'utf8').split('\n')[0] ?? '';
    const link = /\$schema=(\S+)$/.exec(schemaLine)?.[1] ?? 'no link';
    expect(JSON.parse(readFileSync(join(project, '.the-loop', link), 'utf8'))).toMatchObject({ $schema: expect.stringContaining('json-schema.org') });
    ok(['npx', 'the-loop', 'new', 'issue-1'], join(project, '.the-loop'));
    const check = run([theLoop, 'check', 'issue-1', '--format', 'json'], project);
    expect(check.status).toBe(1);
    expect(JSON.parse(check.stdout)).toMatchObject({ schemaVersion: 1, workItem: 'issue-1', currentNode: expect.any(String) });
    // A configured repository's check without caches (as in CI) reads YAML through the library
    // beside the bundle, whose shipped cache the launcher keeps as it keeps the bundle's, and
    // writes again when it is gone.
    const yamlCache = `the-loop-yaml.cjs.${node}.cache`;
    const shippedYaml = cacheBytes(installed, yamlCache);
    expect(shippedYaml?.length).toBeGreaterThan(50_000);
    run([theLoop, 'check', 'issue-1', '--no-cache'], project);
    expect(cacheBytes(installed, yamlCache)?.equals(shippedYaml as Buffer)).toBe(true);
    rmSync(join(installed, yamlCache));
    // With its caches, a check takes the configuration's values kept by the check before and
    // loads no YAML at all (decision 190), so it writes no cache for the library.
    expect(run([theLoop, 'check', 'issue-1', '--format', 'json'], project).stdout).toBe(check.stdout);
    expect(cacheBytes(installed, yamlCache)).toBeUndefined();
    expect(run([theLoop, 'check', 'issue-1', '--format', 'json', '--no-cache'], project).stdout).toBe(check.stdout);
    const writtenYaml = cacheBytes(installed, yamlCache);
    expect(writtenYaml?.length).toBeGreaterThan(0);
    run([theLoop, 'check', 'issue-1', '--no-cache'], project);
    expect(cacheBytes(installed, yamlCache)?.equals(writtenYaml as Buffer)).toBe(true);
    // A report over enough work items for worker threads, which read YAML and Markdown that only
    // markdown-it reads (indented code), leaves every cache as it was and writes no other: code
    // compiled once threads started belongs to no kind of run (decision 183).
    const caches = (): Record<string, string> =>
      Object.fromEntries(readdirSync(installed).filter((file) => file.endsWith('.cache')).map((file) => [file, readFileSync(join(installed, file)).toString('base64')]));
    const before = caches();
    for (let n = 100; n < 200; n += 1) write(project, { [`docs/specs/item-${n}/design.md`]: `# Design ${n}\n\n## Approach\n\n    indented code\n` });
    const threaded = run([theLoop, 'report', '--format', 'json', '--no-cache'], project);
    expect(JSON.parse(threaded.stdout)).toMatchObject({ workItems: 101 });
    expect(caches()).toEqual(before);

    ok([theLoop, 'hooks', 'install', '--claude', '--git'], project);
    const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.Stop[0].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"');
    expect(readFileSync(join(project, '.git/hooks/pre-push'), 'utf8')).toContain('exec node_modules/.bin/the-loop hook pre-push');
    // The installed hooks run the installed CLI and block the canaries.
    const doctor = run([theLoop, 'doctor', '--format', 'json'], project);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ ok: true });
  }, 180_000);
});

describe('@the-loop/core, packed as a library and installed into a fresh TypeScript project', () => {
  it('declares exactly the runtime dependencies its modules import, with types, an exports map and no side effects', () => {
    const manifest = manifestOf(tarballs.core);
    expect(manifest['sideEffects']).toBe(false);
    expect(manifest['type']).toBe('module');
    expect(manifest['exports']).toEqual({ '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
    const listed = ok(['tar', '-tzf', tarballs.core], root).split('\n').filter(Boolean);
    expect(listed).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts']));
    expect(listed.filter((path) => /\.test\.|test-support|\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    const imported = new Set<string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.js')) {
          // The module specifiers of import and export statements and of dynamic imports.
          for (const match of readFileSync(path, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
            const spec = (match[1] ?? match[2] ?? match[3]) as string;
            if (spec.startsWith('.')) continue;
            imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
          }
        }
      }
    };
    walk(join(root, 'packages/core/dist'));
    expect(Object.keys((manifest['dependencies'] ?? {}) as object).sort()).toEqual([...imported].filter((name) => !name.startsWith('node:')).sort());
  });

  it('type-checks an import strictly and evaluates a work item with it', () => {
    const project = temp('ts-project');
    write(project, {
      'package.json': JSON.stringify({ name: 'acme-tool', version: '1.0.0', private: true, type: 'module' }, null, 2),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: [], outDir: 'out', rootDir: 'src' },
        include: ['src'],
      }),
      'src/gate.ts': `import { evaluateWorkItem, presetGraph, type Diagnostic, type WorkItemResult } from '@the-loop/core';

const tasks = '# Implementation Plan\\n\\n- [x] 1. Parse\\n- [ ] 2. Report\\n';
const result: WorkItemResult = evaluateWorkItem(presetGraph('kiro'), {
  id: 'csv-export',
  dir: '.kiro/specs/csv-export',
  files: new Map([
    ['requirements.md', { text: '# Requirements Document\\n\\nExport CSV.\\n' }],
    ['design.md', { text: '# Design Document\\n\\nA stream.\\n' }],
    ['tasks.md', { text: tasks }],
  ]),
});
// @ts-expect-error the current node is a string or null, never a number
const wrong: number = result.currentNode;
const where = (d: Diagnostic): string => \`\${d.ruleId} \${d.file}:\${d.line}\`;
console.log(JSON.stringify({ currentNode: result.currentNode, ok: result.ok, findings: result.findings.map(where), wrong: typeof wrong }));
`,
    });
    ok(['npm', 'install', tarballs.core, '--prefer-offline', '--no-audit', '--no-fund'], project);
    const tsc = run([process.execPath, '--input-type=module', '-e', TYPE_CHECK, join(root, 'node_modules/typescript/lib/typescript.js'), project], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    const out = JSON.parse(ok([process.execPath, 'out/gate.js'], project)) as Record<string, unknown>;
    expect(out).toEqual({ currentNode: 'implementation', ok: false, findings: ['tasks-incomplete .kiro/specs/csv-export/tasks.md:4'], wrong: 'string' });
  }, 180_000);
});
