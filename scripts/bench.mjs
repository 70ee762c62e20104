// `pnpm bench`: the performance budgets (docs/decisions/006-start-up-budget.md), measured as ratios against
// `node -e ''` in the same run (machines are noisy; absolute times mean little). Start-up
// measurements interleave the commands round by round and take medians.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync, openSync, readFileSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/bin/the-loop.cjs');
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const work = mkdtempSync(join(tmpdir(), 'the-loop-bench-'));
try {
  const corpus = existsSync(join(root, 'test-fixtures/retrofit-34/docs/specs')) ? join(root, 'test-fixtures/retrofit-34') : generate(join(work, 'corpus'), 34);
  const checkId = 'bench-item';
  const small = generate(join(work, 'small'), 1, checkId);

  const payload = JSON.stringify({ session_id: 'bench', transcript_path: '', cwd: small, hook_event_name: 'Stop', stop_hook_active: false });
  const hookAvailable = spawnSync(process.execPath, [bin, 'hook', '--help'], { encoding: 'utf8' }).status === 0;
  const startup = {
    baseline: { argv: ['-e', ''] },
    check: { argv: [bin, 'check', checkId, '--repo', small, '--format', 'json'] },
    'report (34 items)': { argv: [bin, 'report', '--repo', corpus, '--format', 'json'] },
    ...(hookAvailable ? { 'hook round trip': { argv: [bin, 'hook', 'Stop', '--harness', 'claude', '--repo', small, '--work-item', checkId], input: payload } } : {}),
  };
  const samples = Object.fromEntries(Object.keys(startup).map((k) => [k, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, { argv, input }] of Object.entries(startup)) samples[name].push(time(argv, input).ms);
  }
  const base = median(samples.baseline);
  const budgets = { check: 1.6, 'report (34 items)': 2, 'hook round trip': 1.8 };
  const rows = [['measure', 'median', 'ratio to node -e ""', 'budget', 'verdict']];
  rows.push(['node -e ""', fmt(base), '1.00', '', '']);
  for (const name of Object.keys(startup).filter((k) => k !== 'baseline')) {
    const ratio = median(samples[name]) / base;
    rows.push([name, fmt(median(samples[name])), ratio.toFixed(2), `≤ ${budgets[name]}`, ratio <= budgets[name] ? 'within' : 'OVER']);
  }
  if (!hookAvailable) rows.push(['hook round trip', '—', '—', '≤ 1.8', 'not measured: no `hook` command in this build']);

  const thousand = generate(join(work, 'k1'), 1_000);
  const tenThousand = generate(join(work, 'k10'), 10_000);
  const r1 = time([bin, 'report', '--repo', thousand, '--format', 'json'], undefined, true);
  const r10 = time([bin, 'report', '--repo', tenThousand, '--format', 'json'], undefined, true);
  const growth = r10.ms / r1.ms;
  rows.push(['report (1,000 items)', fmt(r1.ms), (r1.ms / base).toFixed(1), '', `peak RSS ${mb(r1.rss)}`]);
  rows.push(['report (10,000 items)', fmt(r10.ms), (r10.ms / base).toFixed(1), '≤ 5 s, ≤ 300 MB', r10.ms <= 5000 && r10.rss <= 300 * 1024 ? `within (peak RSS ${mb(r10.rss)})` : `OVER (peak RSS ${mb(r10.rss)})`]);
  rows.push(['10× items → time', `${growth.toFixed(2)}×`, '', '≤ 11×', growth <= 11 ? 'within' : 'OVER']);
  print(rows);
  console.log(`\n${rounds} interleaved rounds per start-up measure; node ${process.version}, ${process.platform}/${process.arch}.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function time(argv, input, withRss = false) {
  const rssFile = join(work, 'rss.txt');
  const fd = withRss ? openSync(rssFile, 'w') : undefined;
  const args = withRss ? ['-r', join(root, 'scripts/bench-rss.cjs'), ...argv] : argv;
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    input: input ?? '',
    stdio: ['pipe', 'pipe', 'pipe', ...(fd !== undefined ? [fd] : [])],
    env: { ...process.env, NO_COLOR: '1', ...(fd !== undefined ? { THE_LOOP_BENCH_RSS_FD: '3' } : {}) },
    maxBuffer: 1024 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (fd !== undefined) closeSync(fd);
  if (result.status === 2 || result.status === null) {
    throw new Error(`benchmark command failed (${result.status}): ${argv.join(' ')}\n${result.stderr}`);
  }
  // Worker threads load the preload too; every line is the same process's peak, take the largest.
  const rss = withRss ? Math.max(...readFileSync(rssFile, 'utf8').trim().split('\n').map(Number)) : 0;
  return { ms, rss };
}

// Work items shaped like real ones: requirements, design, tasks and a log, some drift.
function generate(dir, count, onlyId) {
  const specs = join(dir, 'docs/specs');
  for (let i = 0; i < count; i += 1) {
    const id = onlyId ?? `item-${String(i).padStart(5, '0')}`;
    const item = join(specs, id);
    mkdirSync(item, { recursive: true });
    const draft = i % 2 === 0;
    writeFileSync(join(item, 'requirements.md'), `---\nstatus: ${draft ? 'draft' : 'approved'}\n---\n# Requirements for ${id}\n\n## Problem\n\nUsers cannot export reports.\n\n## Security considerations\n\n- **Export endpoint**: authenticated users only\n- **Stored files**: signed URLs\n`);
    writeFileSync(join(item, 'design.md'), `---\nstatus: approved\n---\n# Design\n\n## Components\n\nAn export worker.\n\n## Security design\n\nThe export endpoint checks the session; stored files use signed URLs.\n`);
    writeFileSync(join(item, 'tasks.md'), `# Tasks\n\n- [x] Add the export worker\n- [${i % 3 === 0 ? ' ' : 'x'}] Sign stored file URLs\n1. [x] Document the endpoint\n`);
    writeFileSync(join(item, 'execution-log.md'), `---\nphase: needs-review\n---\n# Execution log\n\n## Review cycles\n\n| Round | Type | Reviewer | Outcome |\n|---|---|---|---|\n| 1 | self | claude/opus | zero |\n`);
  }
  return dir;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

function mb(kb) {
  return `${(kb / 1024).toFixed(0)} MB`;
}

function print(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows) console.log(row.map((cell, i) => String(cell).padEnd(widths[i] + 2)).join('').trimEnd());
}
