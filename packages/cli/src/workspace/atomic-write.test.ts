import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleDriver, sourcePath } from '../test-support/bundle-driver.js';
import { createFileAtomic, writeFileAtomic } from './atomic-write.js';

// Version n of the file: valid JSON whose padding length is a function of n, so a torn or
// mixed write cannot pass for a whole version.
const DRIVER = (module: string) => `
import { writeFileAtomic } from ${JSON.stringify(module)};
const target = process.argv[2];
const version = (n) => JSON.stringify({ seq: n, pad: 'x'.repeat(1_000_000 + (n % 97) * 1013) });
for (let n = Number(process.argv[3]); ; n += 1) {
  await writeFileAtomic(target, version(n));
  process.stdout.write(n + '\\n');
}
`;

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
    for (let round = 0; round < 40; round += 1) {
      const child = spawn(process.execPath, [driver, target, String(last + 1)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let written = 0;
      const started = new Promise((resolve) => child.stdout.once('data', resolve));
      child.stdout.setEncoding('utf8').on('data', (c: string) => (written += c.split('\n').filter(Boolean).length));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // Let it finish one write, then kill it at a random moment of the following ones.
      await started;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      child.kill('SIGKILL');
      await exited;
      if (written > 0) killedMidRun += 1;
      const seq = valid(await readFile(target, 'utf8'));
      expect(seq).toBeGreaterThanOrEqual(last);
      last = seq;
    }
    // Every kill landed while the writer was busy writing, not before it started.
    expect(killedMidRun).toBe(40);
    expect(last).toBeGreaterThanOrEqual(40);
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
