// Builds the CLI as a minified CommonJS bundle with a V8 code cache (start-up time is a budget;
// report's worker threads run the same bundle through the same cache), and the library packages'
// dist/ (JavaScript + declarations) for other tools.
import { copyFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCli } from './cli-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliDist = `${root}packages/cli/dist`;
await rm(cliDist, { recursive: true, force: true });
// One CommonJS file per entry: V8's code cache (see bin/the-loop.cjs) works for scripts, and
// lazily imported commands become lazily initialised modules inside the bundle.
await buildCli(root, cliDist, { minify: true });
await writeCodeCache();
// The configuration's JSON Schema ships with the CLI: `the-loop init` links it from the file it writes.
await copyFile(`${root}schemas/harness-config.schema.json`, `${cliDist}/harness-config.schema.json`);

const libraries = ['core', 'adapters-claude', 'adapters-cursor', 'hooks'];
const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', ...libraries.map((p) => `packages/${p}/tsconfig.build.json`)], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// Representative runs (a check that reads every kind of artifact in a configured repository, a
// Stop hook, reports) compile the functions a start-up needs; the launcher then saves V8's code
// cache for them beside the bundle.
async function writeCodeCache() {
  const dir = await mkdtemp(join(tmpdir(), 'the-loop-build-'));
  try {
    const item = join(dir, 'docs/specs/issue-1');
    await mkdir(item, { recursive: true });
    await writeFile(join(item, 'requirements.md'), '---\nstatus: approved\n---\n# R\n\n## Security considerations\n\n- **Tokens**: kept server-side\n');
    await writeFile(join(item, 'design.md'), '---\nstatus: draft\n---\n# D\n\n## Security design\n\nTokens stay on the server.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    await writeFile(join(item, 'tasks.md'), '# T\n\n- [x] one\n- [ ] two\n* [~] three\n');
    // Configured as `init` leaves a repository (a preset and no collaborators yet): the YAML
    // reader and the configuration's checks run on every start-up of such a repository.
    await mkdir(join(dir, '.the-loop'));
    await writeFile(join(dir, '.the-loop/harness-config.yaml'), '# the-loop\nworkflow:\n  # the layout\n  preset: the-loop\n');
    await writeFile(join(dir, '.the-loop/collaborators.yaml'), '# who may approve\ncollaborators: []\n');
    await writeFile(join(item, 'execution-log.md'), '---\nphase: needs-review\n---\n# L\n\n## Review cycles\n\n| Round | Type | Outcome |\n|---|---|---|\n| 1 | self | zero |\n');
    // The launcher keeps a cache for each kind of run (decision 174). A check and a Stop hook,
    // which runs on every agent turn, with a payload on stdin as a harness gives it; and a check
    // printed as a table, as it prints by default.
    const payload = JSON.stringify({ session_id: 'build', transcript_path: '', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
    cacheRun(['check', 'issue-1', '--repo', dir, '--format', 'json'], [['hook', 'Stop', '--harness', 'claude', '--repo', dir, '--work-item', 'issue-1'], ['check', 'issue-1', '--repo', dir]], payload, '');
    // Runs over many work items: a report (and a cached reading of the same artifacts), work
    // items as teams write them (the bundled corpus) read in full, so that the inline and block
    // syntax of real prose compiles here rather than in every cold run, and `check --all`.
    cacheRun(
      ['report', '--repo', dir, '--format', 'json'],
      [
        ['report', '--repo', `${root}test-fixtures/retrofit-34`, '--format', 'json', '--no-cache'],
        ['check', '--all', '--repo', dir, '--format', 'json'],
      ],
      '',
      '.many-items',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Run the launcher on `argv`, then on each of `also` in the same process, and have it write the
// code cache for that kind of run beside the bundle: `the-loop.cjs<kind>.<this Node build>.cache`.
function cacheRun(argv, also, input, kind) {
  const run = spawnSync(process.execPath, [`${root}packages/cli/bin/the-loop.cjs`, ...argv], {
    // CI turns the artifact cache off; the cached reading must be compiled wherever the build runs.
    // Written under V8's own flags, without any the environment's NODE_OPTIONS would add: the
    // launcher reads these caches for runs without options of their own.
    env: { ...withoutNodeOptions(process.env), CI: '', THE_LOOP_WRITE_CODE_CACHE: JSON.stringify(also) },
    input,
    encoding: 'utf8',
  });
  const written = new RegExp(`^the-loop\\.cjs${kind.replace('.', '\\.')}\\.[0-9a-f]{8}\\.cache$`);
  if (run.status !== 1 || !readdirSync(cliDist).some((file) => written.test(file))) throw new Error(`the code-cache run \`${argv.join(' ')}\` failed (exit ${run.status}): ${run.stderr}`);
}

function withoutNodeOptions(env) {
  const { NODE_OPTIONS: _options, ...rest } = env;
  return rest;
}
