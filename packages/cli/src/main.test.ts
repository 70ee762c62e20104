// The first minutes with the CLI: a typo gets a did-you-mean on one clean line, a command works
// from any subfolder of the project, colour can be turned off, and a fix names the real work item.
import { copyFile, cp, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from './harness/adapters.js';
import { runCli } from './main.js';
import { BIN, git, makeRepo, runArgv, runBuiltCli } from './test-support/cli.js';
import { runInProcess } from './test-support/in-process.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

async function repo(files: Record<string, string>): Promise<string> {
  const dir = await makeRepo(files);
  temps.push(dir);
  return dir;
}

const run = (cwd: string, argv: string[], env: NodeJS.ProcessEnv = { NO_COLOR: '1' }) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS, env });

// Lines of `text` other than the trailing newline.
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('a misspelled command or option: one clean line with a did-you-mean', () => {
  it.each([
    [['chek', 'issue-1'], 'the-loop: unknown command "chek" (did you mean "check"?); run `the-loop --help` for the list'],
    [['check', 'issue-1', '--fromat', 'json'], 'the-loop: unknown option --fromat (did you mean --format?); run `the-loop check --help` for its options'],
    [['report', '--allow-emtpy'], 'the-loop: unknown option --allow-emtpy (did you mean --allow-empty?); run `the-loop report --help` for its options'],
    [['check', 'issue-1', '-x'], 'the-loop: unknown option -x; run `the-loop check --help` for its options'],
    [['check', 'issue-1', '--format'], 'the-loop: --format needs a value; run `the-loop check --help` for its options'],
    [['check', 'issue-1', '--all=yes'], 'the-loop: --all takes no value (got "--all=yes"); run `the-loop check --help` for its options'],
    [['check', 'issue-1', '--format', '--all'], 'the-loop: --format needs a value, and "--all" looks like an option (write --format=--all if it is the value); run `the-loop check --help` for its options'],
    [['graph', 'shwo'], 'the-loop: unknown graph subcommand "shwo" (did you mean "show"?); it is one of show, status, advance, complete, force, approve, opt-in'],
    [['graph', 'advance', 'issue-1', '--outcom', 'x'], 'the-loop: unknown option --outcom (did you mean --outcome?); run `the-loop graph --help` for its options'],
    [['hooks', 'instal'], 'the-loop: unknown hooks subcommand "instal" (did you mean "install"?); it is one of install'],
    [['critic', 'rn'], 'the-loop: unknown critic subcommand "rn" (did you mean "run"?); it is one of list, run'],
    [['models', 'chek'], 'the-loop: unknown models subcommand "chek" (did you mean "check"?); it is one of check'],
    [['check', 'issue-1', '--format', 'jsn'], 'the-loop: --format must be one of table, json, sarif, github; got "jsn" (did you mean "json"?)'],
    [['init', '--preset', 'speckit'], 'the-loop: --preset must be one of the-loop, kiro, spec-kit, openspec; got "speckit" (did you mean "spec-kit"?)'],
  ])('%j', async (argv, message) => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# R\n' });
    const result = await run(dir, argv);
    expect([result.code, result.stdout, lines(result.stderr)]).toEqual([2, '', [message]]);
  });

  it('a misspelled work-item id gets the closest known one', async () => {
    const dir = await repo({ 'docs/specs/login-form/requirements.md': '# R\n', 'docs/specs/signup/requirements.md': '# R\n' });
    const result = await run(dir, ['check', 'login-from']);
    expect([result.code, result.stderr]).toEqual([2, 'the-loop: no work item "login-from" under docs/specs. Did you mean "login-form"?\n']);
  });

  it('a word far from every command gets no guess', async () => {
    const result = await run(await repo({}), ['frobnicate']);
    expect(result.stderr).toBe('the-loop: unknown command "frobnicate"; run `the-loop --help` for the list\n');
  });

  it('a misspelled hook event gets a did-you-mean, and the hook still never exits 2', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# R\n' });
    const result = await run(dir, ['hook', 'Stopp', '--harness', 'claude']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('claude hook event must be one of Stop, SessionStart, UserPromptSubmit, PostToolUse; got "Stopp" (did you mean "Stop"?)');
  });

  it('an option after `--` is a positional, not a misspelling', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# R\n' });
    const result = await run(dir, ['check', '--', '--frmat']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"--frmat" is not a work-item id');
  });
});

describe('the repository root is found from any subfolder', () => {
  const CONFIG = 'workflow:\n  specDir: specs\n';
  const FILES = { '.the-loop/harness-config.yaml': CONFIG, 'specs/issue-1/requirements.md': '# R\n\nGreet.\n', 'src/deep/er/main.ts': '' };

  it('walks up to .the-loop/', async () => {
    const dir = await repo(FILES);
    const result = await run(join(dir, 'src/deep/er'), ['check', 'issue-1', '--format', 'json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ workItem: 'issue-1', findings: expect.arrayContaining([expect.objectContaining({ file: 'specs/issue-1/requirements.md' })]) });
  });

  it('walks up to .git when there is no .the-loop/, and stops at the nearest one', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# R\n', 'app/docs/specs/issue-2/requirements.md': '# R\n' });
    await git(dir, ['init', '-q']);
    await mkdir(join(dir, 'app/src'), { recursive: true });
    const fromTop = await run(join(dir, 'docs/specs/issue-1'), ['report', '--format', 'json']);
    expect(JSON.parse(fromTop.stdout).items.map((i: { workItem: string }) => i.workItem)).toEqual(['issue-1']);
    await git(join(dir, 'app'), ['init', '-q']);
    const fromApp = await run(join(dir, 'app/src'), ['report', '--format', 'json']);
    expect(JSON.parse(fromApp.stdout).items.map((i: { workItem: string }) => i.workItem)).toEqual(['issue-2']);
  });

  it('--repo is taken as given, with no walk', async () => {
    const dir = await repo(FILES);
    const result = await run(dir, ['check', 'issue-1', '--repo', 'src']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the spec root docs/specs does not exist');
  });
});

describe('--no-color', () => {
  it('turns colour off even where FORCE_COLOR would turn it on, for any command', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# R\n' });
    const escape = String.fromCharCode(27);
    const coloured = await run(dir, ['check', 'issue-1'], { FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain(escape);
    for (const argv of [['check', 'issue-1', '--no-color'], ['--no-color', 'report']]) {
      const plain = await run(dir, argv, { FORCE_COLOR: '1' });
      expect(plain.code).toBe(1);
      expect(plain.stdout).not.toContain(escape);
      expect(plain.stdout).toContain('issue-1');
    }
  });
});

describe('fix hints name the real work item and artifact', () => {
  it('approval and missing-artifact fixes carry the id, the file and the only approver', async () => {
    const dir = await repo({
      '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: ann, roles: [approver]}\n',
      'docs/specs/login-form/requirements.md': '---\nstatus: approved\n---\n# Requirements\n\nSign in.\n',
      'docs/specs/login-form/design.md': '# Design\n',
    });
    const result = await run(dir, ['check', 'login-form', '--format', 'json']);
    const fixes = (JSON.parse(result.stdout) as { findings: { ruleId: string; fix: string }[] }).findings.map((f) => `${f.ruleId}: ${f.fix}`);
    expect(fixes).toContain('approval-missing: `the-loop graph approve login-form requirements.md --by ann`, run by an approver listed in .the-loop/collaborators.yaml.');
    expect(fixes.join('\n')).not.toMatch(/<id>|<work-item>/);
  });

  it('a missing first artifact names the folder to write it in', async () => {
    const dir = await repo({ 'docs/specs/issue-7/notes.txt': 'x\n' });
    const result = await run(dir, ['check', 'issue-7', '--format', 'json']);
    const finding = (JSON.parse(result.stdout) as { findings: { ruleId: string; fix: string }[] }).findings.find((f) => f.ruleId === 'artifact-missing');
    expect(finding?.fix).toBe('Write requirements.md or bugfix.md in docs/specs/issue-7/.');
  });
});

describe('stdin is opened only by a command that reads it', () => {
  // Opening the process's stdin costs start-up time on every run; only the hooks read it.
  const envWithStdin = (dir: string, opened: string[]) => {
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    return {
      cwd: dir,
      env: { NO_COLOR: '1' },
      stdout: sink(),
      stderr: sink(),
      get stdin() {
        opened.push('stdin');
        return Readable.from([Buffer.from(JSON.stringify({ session_id: 's', transcript_path: '', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }))]);
      },
      now: () => new Date(),
      adapters: BUILT_IN_ADAPTERS,
    };
  };

  it('check and report, with or without --no-color, never open it; the Stop hook does', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '# Requirements\n\nSign in.\n' });
    for (const argv of [['check', 'issue-1', '--format', 'json'], ['--no-color', 'check', 'issue-1'], ['report', '--format', 'json']]) {
      const opened: string[] = [];
      expect(await runCli(argv, envWithStdin(dir, opened))).toBe(1);
      expect(opened).toEqual([]);
    }
    const opened: string[] = [];
    expect(await runCli(['hook', 'Stop', '--harness', 'claude', '--repo', dir, '--work-item', 'issue-1', '--no-color'], envWithStdin(dir, opened))).toBe(0);
    expect(opened).toEqual(['stdin']);
  });
});

describe('the built CLI reads character references as the sources do', () => {
  // The bundle builds entities' table of named references on first use (scripts/cli-bundle.mjs).
  it('named and numeric references decode in the bundle exactly as in process', async () => {
    const dir = await repo({
      'docs/specs/issue-1/requirements.md': '---\nstatus: approved\n---\n# R\n\n## Security considerations\n\n- **Tok&eacute;ns &amp; keys**: kept server-side\n',
      'docs/specs/issue-1/design.md': '# D\n\n## Security&#x20;design\n\nCaf&eacute; &copy; &notanentity; &NotNestedGreaterGreater;\n',
    });
    const argv = ['check', 'issue-1', '--repo', dir, '--format', 'json', '--no-cache'];
    const built = await runBuiltCli(argv, { cwd: dir });
    expect(built.stderr).toBe('');
    expect(built.stdout).toContain('Trust boundary \\"Tokéns & keys\\"');
    expect(built.stdout).toBe((await run(dir, argv)).stdout);
  });
});

describe('the built CLI takes digests through crypto loaded on first use', () => {
  // The bundle requires node:crypto when a digest or random name is first taken (scripts/cli-bundle.mjs).
  it('a check writes its cache and a second one reads it, as in process', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '---\nstatus: draft\n---\n# Requirements\n\nSign in.\n' });
    const argv = ['check', 'issue-1', '--repo', dir, '--format', 'json'];
    const first = await runBuiltCli(argv, { cwd: dir });
    expect(first.stderr).toBe('');
    const bucket = (await readdir(join(dir, '.the-loop/local/cache/artifacts'))).find((name) => /^[0-9a-f]{2}$/.test(name));
    expect(bucket).toBeDefined();
    expect((await readdir(join(dir, '.the-loop/local/cache/artifacts', bucket as string))).some((name) => /^[0-9a-f]{64}\.v\d+\.f\d+\.json$/.test(name))).toBe(true);
    const second = await runBuiltCli(argv, { cwd: dir });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toBe((await run(dir, [...argv, '--no-cache'])).stdout);
  });
});

describe('the built CLI sets its V8 flags quietly', () => {
  // A run over many work items sets V8 flags through the binding node:v8 is built on, which Node
  // 20 calls deprecated (decision 176): a user's own deprecation options must see nothing of it.
  it('a report under --throw-deprecation and --pending-deprecation prints only its report, as in process', async () => {
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '---\nstatus: draft\n---\n# Requirements\n\nSign in.\n' });
    const argv = ['report', '--repo', dir, '--format', 'json', '--no-cache'];
    const built = await runBuiltCli(argv, { cwd: dir, env: { NODE_OPTIONS: '--throw-deprecation --pending-deprecation' } });
    expect(built.stderr).toBe('');
    expect(built.code).toBe(1);
    expect(built.stdout).toBe((await run(dir, argv)).stdout);
  });
});

describe('the built CLI and code caches another Node wrote', () => {
  // V8 checks a cache's V8 version, flags and source length, not which Node wrote it: Node 20.19
  // crashed on every start with 20.20's cache (same V8 11.3.244.8). A cache of another script of
  // the bundle's length stands in for another build's: V8 runs it as if it were the bundle's.
  it('reads only the cache named for the Node build running it', async () => {
    const pkg = await repo({});
    await cp(join(BIN, '..'), join(pkg, 'bin'), { recursive: true });
    await cp(join(BIN, '..', '..', 'dist'), join(pkg, 'dist'), { recursive: true });
    const bundle = join(pkg, 'dist', 'the-loop.cjs');
    const poison = join(pkg, 'poison.cache');
    const made = await runArgv(
      [
        process.execPath,
        '-e',
        `const fs = require('node:fs'); const { Script } = require('node:vm');
         let text = "(function () { process.stdout.write('poisoned\\\\n'); })";
         text += ' '.repeat(fs.statSync(process.argv[1]).size - text.length);
         fs.writeFileSync(process.argv[2], new Script(text).createCachedData());`,
        bundle,
        poison,
      ],
      { cwd: pkg },
    );
    expect([made.code, made.stderr]).toEqual([0, '']);
    const ours = (await readdir(join(pkg, 'dist'))).find((name) => /^the-loop\.cjs\.[0-9a-f]{8}\.cache$/.test(name)) as string;
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '---\nstatus: draft\n---\n# Requirements\n\nSign in.\n' });
    const argv = [process.execPath, join(pkg, 'bin', 'the-loop.cjs'), 'check', 'issue-1', '--repo', dir, '--format', 'json'];
    const expected = await runBuiltCli(argv.slice(2), { cwd: dir });
    expect(expected.code).toBe(1);
    // Where older builds shipped theirs, and where another Node build keeps its own.
    await copyFile(poison, join(pkg, 'dist', 'the-loop.cjs.cache'));
    await copyFile(poison, join(pkg, 'dist', ours.replace(/[0-9a-f]{8}/, (hex) => (hex === 'ffffffff' ? '00000000' : 'ffffffff'))));
    const run = await runArgv(argv, { cwd: dir });
    expect([run.code, run.stdout, run.stderr]).toEqual([expected.code, expected.stdout, expected.stderr]);
    // Under this build's own name, V8 takes it.
    await copyFile(poison, join(pkg, 'dist', ours));
    const poisoned = await runArgv(argv, { cwd: dir });
    expect(poisoned.stdout).toBe('poisoned\n');
  });
});

describe('the built CLI under options of its own', () => {
  // V8 rejects a code cache written under other flags: a run under NODE_OPTIONS that sets one
  // keeps a cache of its own beside the build's, which it leaves as it was (bin/the-loop.cjs).
  const dist = join(BIN, '..', '..', 'dist');
  // Named for the Node build, then for the options (decision 192).
  const ownCaches = async () => (await readdir(dist)).filter((name) => /^the-loop\.cjs(?:\.many-items)?\.[0-9a-f]{8}\.[0-9a-f]{8}\.cache$/.test(name)).sort();
  const shippedCache = async () => join(dist, (await readdir(dist)).find((name) => /^the-loop\.cjs\.[0-9a-f]{8}\.cache$/.test(name)) ?? 'none');

  it('keeps its code cache beside the build\'s and reads it again; options that set no V8 flag use the build\'s', async () => {
    const before = await ownCaches();
    const shipped = await readFile(await shippedCache());
    const dir = await repo({ 'docs/specs/issue-1/requirements.md': '---\nstatus: draft\n---\n# Requirements\n\nSign in.\n' });
    const argv = ['check', 'issue-1', '--repo', dir, '--format', 'json', '--no-cache'];
    const expected = (await run(dir, argv)).stdout;
    try {
      // A heap limit no other test sets: V8's flags differ from the build's.
      const flagged = { env: { NODE_OPTIONS: '--max-old-space-size=2999' } };
      const first = await runBuiltCli(argv, { cwd: dir, ...flagged });
      expect([first.code, first.stdout, first.stderr]).toEqual([1, expected, '']);
      const written = (await ownCaches()).filter((name) => !before.includes(name));
      expect(written).toHaveLength(1);
      const own = join(dist, written[0] as string);
      const { mtimeMs } = await stat(own);
      const second = await runBuiltCli(argv, { cwd: dir, ...flagged });
      expect([second.code, second.stdout]).toEqual([1, expected]);
      expect((await stat(own)).mtimeMs).toBe(mtimeMs);
      expect(await readFile(await shippedCache())).toEqual(shipped);

      const quiet = await runBuiltCli(argv, { cwd: dir, env: { NODE_OPTIONS: '--no-warnings' } });
      expect([quiet.code, quiet.stdout]).toEqual([1, expected]);
      expect((await ownCaches()).filter((name) => !before.includes(name))).toEqual(written);
    } finally {
      for (const name of (await ownCaches()).filter((name) => !before.includes(name))) await rm(join(dist, name), { force: true });
    }
  });
});
