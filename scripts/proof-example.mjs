// Generates the example in docs/proof.md with the real commands: copies the work item in
// test-fixtures/proof-example into a fresh git repository (fixed author and dates, so the commit
// id is the same everywhere), records the approvals, runs `the-loop verify`, and writes what
// `the-loop proof` prints between the markers of docs/proof.md.
// `--check` exits 1 when docs/proof.md is not what the commands print today.
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/bin/the-loop.cjs');
const doc = join(root, 'docs/proof.md');
const ITEM = 'add-greeting';
const DATE = '2026-05-04T10:00:00Z';

const dir = await mkdtemp(join(tmpdir(), 'the-loop-proof-example-'));
try {
  await cp(join(root, 'test-fixtures/proof-example'), dir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Ann Example', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann Example', GIT_COMMITTER_EMAIL: 'ann@example.com', GIT_AUTHOR_DATE: DATE, GIT_COMMITTER_DATE: DATE, NO_COLOR: '1' };
  const run = (argv, ok = [0]) => {
    const result = spawnSync(argv[0], argv.slice(1), { cwd: dir, env, encoding: 'utf8' });
    if (!ok.includes(result.status)) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  run(['git', 'init', '-q', '-b', 'main']);
  run(['git', 'add', '-A']);
  run(['git', '-c', 'commit.gpgsign=false', 'commit', '-qm', 'Greet by name']);
  for (const artifact of ['requirements.md', 'design.md']) run([process.execPath, bin, 'graph', 'approve', ITEM, artifact, '--by', 'ann']);
  run([process.execPath, bin, 'verify', ITEM]);
  run([process.execPath, bin, 'graph', 'advance', ITEM], [0, 1]);
  const markdown = run([process.execPath, bin, 'proof', ITEM, '--format', 'markdown'], [0, 1]);
  const json = run([process.execPath, bin, 'proof', ITEM], [0, 1]);

  const current = await readFile(doc, 'utf8');
  const next = fill(fill(current, 'markdown', `\`\`\`markdown\n${markdown}\`\`\``), 'json', `\`\`\`json\n${json}\`\`\``);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error('docs/proof.md is not what the commands print today: run node scripts/proof-example.mjs');
      process.exitCode = 1;
    }
  } else {
    await writeFile(doc, next);
    console.log('wrote docs/proof.md');
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

function fill(text, name, body) {
  const open = `<!-- proof-example:${name} -->`;
  const close = `<!-- /proof-example:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`docs/proof.md lacks the ${open} … ${close} markers`);
  return `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`;
}
