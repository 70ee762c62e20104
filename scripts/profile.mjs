// Where a CLI run spends its time: `node scripts/profile.mjs -- report --repo DIR`.
// Builds an unminified copy of the CLI bundle (so each function keeps the name of the package
// it came from), runs the command under `node --cpu-prof` (every thread writes its own
// profile), and prints self time by package, with V8's own categories (garbage collection,
// compilation, idle) kept apart. Nothing is written into the repository.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli, chunkFile, CHUNKS } from './cli-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const separator = process.argv.indexOf('--');
const args = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
const top = Number(process.env.PROFILE_TOP ?? 12);

// What a sample was doing, named by the nearest enclosing function that marks a phase.
const PHASES = [
  [/^parseFrontMatter$/, 'front-matter YAML'],
  [/^(parseArtifact|parseMarkdown|extractArtifact|extractFacts|tokenize\w*|simpleFacts|sectionsOf|tasksOf|tablesOf|statementsOf|phrasingOf|readPhrasing)$/, 'markdown parsing and extraction'],
  [/^(readWorkItem|readArtifact|listWorkItems)$/, 'reading the spec folders'],
  [/^(openRepo|loadConfig|parseHarnessConfig|compileGraph\w*|getDefaultGraph)$/, 'configuration and graph compilation'],
  [/^(evaluateWorkItem|evaluateGate)$/, 'gate evaluation (without parsing)'],
  [/^(buildReport|render\w*|format\w*)$/, 'report building and output'],
  [/^(runWorker|evaluateShare)$/, 'worker threads'],
  [/^init_/, 'module initialisation'],
];

const work = mkdtempSync(join(tmpdir(), 'the-loop-profile-'));
try {
  const dist = join(work, 'dist');
  await buildCli(root, dist, { minify: false });
  // The real launcher beside the bundle, as the package lays them out: the same V8 settings,
  // and the code cache it writes on a first run.
  const launcher = join(work, 'bin', 'the-loop.cjs');
  mkdirSync(dirname(launcher));
  copyFileSync(join(root, 'packages/cli/bin/the-loop.cjs'), launcher);
  // A hook reads its payload on stdin: PROFILE_INPUT names a file to feed it.
  const input = process.env.PROFILE_INPUT ? readFileSync(process.env.PROFILE_INPUT) : '';
  // Output to a pipe, as a harness or CI reads it (and as the bench does): to a terminal or
  // /dev/null, Node loads its tty modules to ask whether it is one.
  const output = { stdio: ['pipe', 'pipe', 'ignore'], maxBuffer: 1024 * 1024 * 1024 };
  spawnSync(process.execPath, [launcher, ...args], { input, ...output, env: { ...process.env, NO_COLOR: '1' } });
  const profiles = join(work, 'profiles');
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--cpu-prof-interval=250', launcher, ...args], {
    input,
    ...output,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const modules = new Map(['the-loop.cjs', ...Object.keys(CHUNKS).map(chunkFile)].map((file) => [file, moduleRanges(readFileSync(join(dist, file), 'utf8'))]));
  const totals = new Map();
  const phases = new Map();
  const functions = new Map();
  let sampled = 0;
  for (const file of readdirSync(profiles)) {
    const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8'));
    const selfOf = new Map(profile.nodes.map((node) => [node.id, 0]));
    const parentOf = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node])));
    for (let i = 0; i < profile.samples.length; i += 1) selfOf.set(profile.samples[i], selfOf.get(profile.samples[i]) + (profile.timeDeltas[i] ?? 0));
    for (const node of profile.nodes) {
      const us = selfOf.get(node.id);
      if (us === 0) continue;
      const key = category(node.callFrame, modules);
      totals.set(key, (totals.get(key) ?? 0) + us);
      sampled += us;
      const name = `${node.callFrame.functionName || '(anonymous)'} (${key}:${node.callFrame.lineNumber + 1})`;
      functions.set(name, (functions.get(name) ?? 0) + us);
      const phase = phaseOf(node, parentOf, key);
      phases.set(phase, (phases.get(phase) ?? 0) + us);
    }
  }
  const busy = sampled - (totals.get('(idle)') ?? 0);
  console.log(`the-loop ${args.join(' ')}: exit ${run.status}, ${wall.toFixed(0)} ms wall, ${(busy / 1000).toFixed(0)} ms on CPU over every thread`);
  const print = (entries) => {
    for (const [key, us] of [...entries].filter(([key]) => key !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  console.log('by package (self time):');
  print(totals);
  console.log('by phase (the innermost phase a sample runs under):');
  print(phases);
  if (process.env.PROFILE_FUNCTIONS) {
    console.log('by function (self time):');
    print(functions);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

function phaseOf(node, parentOf, key) {
  if (key.startsWith('(') && key !== '(V8 builtins)' && key !== '(bundle runtime)') return key;
  for (let at = node; at; at = parentOf.get(at.id)) {
    const found = PHASES.find(([pattern]) => pattern.test(at.callFrame.functionName));
    if (found) return found[1];
  }
  return 'other (Node start-up, loading the bundle, the command itself)';
}

// esbuild marks each bundled module with a `// path` comment line; remember where each begins.
function moduleRanges(source) {
  const starts = [];
  source.split('\n').forEach((line, index) => {
    const match = /^\/\/ (\S+\.(?:[cm]?js|ts|json))$/.exec(line);
    if (match) starts.push([index, match[1]]);
  });
  return starts;
}

function category(frame, modules) {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(V8 builtins)';
  if (frame.url.startsWith('node:')) return 'node: built-in modules';
  const file = frame.url.split('/').pop();
  const ranges = modules.get(file);
  if (!ranges) return frame.url;
  let found = '(bundle runtime)';
  for (const [line, path] of ranges) {
    if (line > frame.lineNumber) break;
    found = path;
  }
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(found);
  if (pkg) return pkg[1];
  const own = /^packages\/([^/]+)\/src\/(.+)$/.exec(found);
  return own ? `the-loop ${own[1]}: ${own[2].replace(/\/[^/]+$/, '/')}` : found;
}
