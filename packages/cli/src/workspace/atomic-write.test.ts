import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleDriver, sourcePath } from '../test-support/bundle-driver.js';
import { createFileAtomic, writeFileAtomic } from './atomic-write.js';

// Version n of the file: valid JSON whose padding length is a function of n, so a torn or
// mixed write cannot pass for a whole version. The writer loads, says so, and starts writing
// (from the version it is given on stdin) only when told: the next writer loads while the
// previous one is being killed, and two never write at once.
const DRIVER = (module: string) => `
import { writeFileAtomic } from ${JSON.stringify(module)};
const target = process.argv[2];
const version = (n) => JSON.stringify({ seq: n, pad: 'x'.repeat(1_000_000 + (n % 97) * 1013) });
process.stdout.write('ready\\n');
const from = await new Promise((resolve) => process.stdin.setEncoding('utf8').once('data', resolve));
for (let n = Number(from); ; n += 1) {
  await writeFileAtomic(target, version(n));
  process.stdout.write(n + '\\n');
}
`;

interface Writer {
  /** Resolves once the writer has loaded, before it writes anything. */
  readonly ready: Promise<unknown>;
  /** Starts the writes at version `from`; resolves once the first one is whole. */
  start(from: number): Promise<void>;
  /** How many writes it has reported whole. */
  readonly written: () => number;
  kill(): Promise<unknown>;
}

function writer(driver: string, target: string): Writer {
  const child = spawn(process.execPath, [driver, target], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let onLine = (): void => undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    onLine();
  });
  const seen = (count: number) => new Promise<void>((resolve) => {
    onLine = () => lines.length >= count && resolve();
    onLine();
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    ready: seen(1),
    async start(from) {
      child.stdin.write(`${from}\n`);
      await seen(2);
    },
    written: () => lines.length - 1,
    kill: () => (child.kill('SIGKILL'), exited),
  };
}

function valid(text: string): number {
  const doc = JSON.parse(text) as { seq: number; pad: string };
  expect(doc.pad.length).toBe(1_000_000 + (doc.seq % 97) * 1013);
  return doc.seq;
}

describe('writeFileAtomic', () => {
  it('leaves the old or the new version when the writer is killed at random moments', async () => {
    const driver = await bundleDriver('atomic-writer', DRIVER(sourcePath('workspace/atomic-write.ts')));
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-crash-'));
    const target = join(dir, 'graph-state.json');
    await writeFile(target, JSON.stringify({ seq: 0, pad: 'x'.repeat(1_000_000) }));
    let last = 0;
    let killedMidRun = 0;
    // Twenty kills, each at a random moment of a writer's stream of 1 MB writes: a torn file
    // would show within a few; each round costs a Node start-up.
    const rounds = 20;
    let next = writer(driver, target);
    for (let round = 0; round < rounds; round += 1) {
      const current = next;
      await current.ready;
      await current.start(last + 1);
      if (round < rounds - 1) next = writer(driver, target);
      // It finished one write: kill it at a random moment of the following ones.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      await current.kill();
      if (current.written() > 0) killedMidRun += 1;
      const seq = valid(await readFile(target, 'utf8'));
      expect(seq).toBeGreaterThanOrEqual(last);
      last = seq;
    }
    // Every kill landed while the writer was busy writing, not before it started.
    expect(killedMidRun).toBe(rounds);
    expect(last).toBeGreaterThanOrEqual(rounds);
  }, 120_000);

  it('replaces the contents in place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-atomic-'));
    const path = join(dir, 'f.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
  });
});

describe('createFileAtomic', () => {
  it('creates a file that is not there, never replaces one that is, and leaves no temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-create-'));
    const path = join(dir, 'config.yaml');
    expect(await createFileAtomic(path, 'first\n')).toBe(true);
    expect(await createFileAtomic(path, 'second\n')).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('first\n');
    expect(await readdir(dir)).toEqual(['config.yaml']);
  });

  it('of many writers racing to create one file, exactly one wins and its text is whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-create-race-'));
    const path = join(dir, 'config.yaml');
    const texts = Array.from({ length: 8 }, (_, n) => `writer ${n}\n`.repeat(10_000));
    const won = await Promise.all(texts.map((text) => createFileAtomic(path, text)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await readFile(path, 'utf8')).toBe(texts[won.indexOf(true)]);
    expect(await readdir(dir)).toEqual(['config.yaml']);
  });
});
