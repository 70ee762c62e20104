import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from './harness/adapters.js';
import { graphConfig } from './test-support/cli.js';
import { runInProcess } from './test-support/in-process.js';

// An adversarial repository: every file the-loop reads may be garbage, a FIFO, a link to a
// device or out of the repository, deeply nested markdown or text full of control characters.
// Whatever it holds, every command ends with 0, 1 or 2, one JSON document on stdout when it
// evaluated anything, no stack trace, and no hang.

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

type Entry =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'fifo' }
  | { readonly kind: 'link'; readonly to: string }
  | { readonly kind: 'folder' };

const control = fc.constantFrom('\u001b[2J', '\u001b]0;x\u0007', '\u009b', '\r', '\u0000', '\u202e', '\u0008');
const line = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('# Tasks', '## Summary', '- [ ] open', '- [x] done', '* [~] odd', '1. [ ] numbered', '| a | b |', '|---|---|', '```', '---', 'status: approved'),
  control,
  fc.tuple(fc.string({ maxLength: 10 }), control).map(([a, b]) => `${a}${b}`),
);
// Nesting a parser might spend its time on: lists, quotes, task lists and brackets up to 5,000
// deep on a line (10 KB), one to three such lines, as the pathological files that once held a hook for a minute.
const nested = fc
  .tuple(fc.constantFrom('- ', '> ', '* [ ] ', '1. ', '['), fc.integer({ min: 50, max: 4_999 }), fc.integer({ min: 1, max: 3 }))
  .map(([marker, depth, lines]) => Array.from({ length: lines }, () => (marker === '[' ? `${'['.repeat(depth)}x${']'.repeat(depth)}` : `${marker.repeat(Math.floor(9_990 / marker.length) < depth ? Math.floor(9_990 / marker.length) : depth)}x`)).join('\n'));
const text = fc.oneof(
  { weight: 4, arbitrary: fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n')) },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')) },
);
const entry: fc.Arbitrary<Entry> = fc.oneof(
  { weight: 6, arbitrary: text.map((t) => ({ kind: 'text' as const, text: t })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fifo' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('/dev/zero', '/etc/passwd', 'nowhere.md', '../../../../outside', 'tasks.md').map((to) => ({ kind: 'link' as const, to })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'folder' as const }) },
);

const ARTIFACTS = ['requirements.md', 'bugfix.md', 'design.md', 'tasks.md', 'execution-log.md', 'graph-state.json'];
const repository = fc.record({
  config: fc.option(fc.oneof(fc.constant<Entry>({ kind: 'text', text: graphConfig({ cap: 2 }) }), entry), { nil: undefined }),
  current: fc.option(entry, { nil: undefined }),
  counters: fc.option(entry, { nil: undefined }),
  collaborators: fc.option(entry, { nil: undefined }),
  items: fc.uniqueArray(
    fc.record({ id: fc.constantFrom('issue-1', 'issue-2', 'a.b', 'x_y'), files: fc.dictionary(fc.constantFrom(...ARTIFACTS), entry, { maxKeys: 4 }) }),
    { minLength: 1, maxLength: 2, selector: (item) => item.id },
  ),
});

async function plant(path: string, planted: Entry): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (planted.kind === 'text') await writeFile(path, planted.text);
  else if (planted.kind === 'fifo') expect(spawnSync('mkfifo', [path]).status).toBe(0);
  else if (planted.kind === 'link') await symlink(planted.to, path);
  else await mkdir(path, { recursive: true });
}

const NO_HANG_MS = 20_000;

describe('a hostile repository never hangs, crashes or passes silently', () => {
  it('check, report and the Stop hook end with 0, 1 or 2, valid JSON and no stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(repository, async (repo) => {
        const dir = await mkdtemp(join(tmpdir(), 'the-loop-hostile-'));
        temps.push(dir);
        if (repo.config) await plant(join(dir, '.the-loop/harness-config.yaml'), repo.config);
        if (repo.current) await plant(join(dir, '.the-loop/current'), repo.current);
        if (repo.counters) await plant(join(dir, '.the-loop/local/stop-counters.json'), repo.counters);
        if (repo.collaborators) await plant(join(dir, '.the-loop/collaborators.yaml'), repo.collaborators);
        for (const item of repo.items) {
          await mkdir(join(dir, 'docs/specs', item.id), { recursive: true });
          for (const [name, planted] of Object.entries(item.files)) await plant(join(dir, 'docs/specs', item.id, name), planted);
        }
        const id = repo.items[0]?.id as string;
        const stop = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
        for (const [argv, stdin] of [
          [['check', id, '--format', 'json'], undefined],
          [['check', '--all', '--format', 'json'], undefined],
          [['report', '--format', 'json'], undefined],
          [['report', '--format', 'markdown'], undefined],
          [['hook', 'Stop', '--harness', 'claude'], stop],
        ] as const) {
          const run = runInProcess(argv, { cwd: dir, adapters: BUILT_IN_ADAPTERS, ...(stdin !== undefined ? { stdin } : {}) });
          let timer: NodeJS.Timeout | undefined;
          const hung = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), NO_HANG_MS)));
          const out = await Promise.race([run, hung]);
          clearTimeout(timer);
          if (out === 'hang') throw new Error(`${argv.join(' ')} did not finish in ${NO_HANG_MS / 1000} s`);
          expect([0, 1, 2], `${argv.join(' ')}: ${out.stderr}`).toContain(out.code);
          expect(out.stderr).not.toMatch(/\n\s+at |internal error/);
          if (out.code === 2) expect(out.stdout).toBe('');
          else if (argv[2] !== 'markdown') expect(() => JSON.parse(out.stdout)).not.toThrow();
          // A hook always answers in the harness's dialect: the stop is decided, never dropped.
          if (argv[0] === 'hook') expect(out.code).toBe(0);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25), ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );
  }, 120_000);
});
