import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleDriver, sourcePath } from '../test-support/bundle-driver.js';
import { withLock } from './lock.js';

// Each process increments a counter file N times under the lock, with a pause between the
// read and the write that would lose updates without mutual exclusion.
const DRIVER = (lock: string, atomic: string) => `
import { readFile } from 'node:fs/promises';
import { withLock } from ${JSON.stringify(lock)};
import { writeFileAtomic } from ${JSON.stringify(atomic)};
const [lockPath, counter, times] = process.argv.slice(2);
for (let i = 0; i < Number(times); i += 1) {
  await withLock(lockPath, 'counter', async () => {
    const n = Number(await readFile(counter, 'utf8'));
    await new Promise((r) => setTimeout(r, 2));
    await writeFileAtomic(counter, String(n + 1));
  }, { timeoutMs: 60_000 });
}
`;

describe('withLock', () => {
  it('lets concurrent processes update a file without losing a write', async () => {
    const driver = await bundleDriver('lock-counter', DRIVER(sourcePath('state/lock.ts'), sourcePath('workspace/atomic-write.ts')));
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-lock-'));
    const counter = join(dir, 'counter');
    await writeFile(counter, '0');
    const runs = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, [driver, join(dir, 'state.lock'), counter, '25'], { stdio: ['ignore', 'inherit', 'inherit'] });
      return new Promise<number | null>((resolve) => child.on('exit', resolve));
    });
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('100');
  }, 120_000);

  it('takes over a lock whose holder is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-lock-'));
    const lock = join(dir, 'state.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    await writeFile(lock, `${dead} ${hostname()} 2026-01-01T00:00:00.000Z\n`);
    expect(await withLock(lock, 'state', async () => 'ran', { timeoutMs: 2_000 })).toBe('ran');
  });

  it('gives up after the bounded wait with a message naming the holder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-lock-'));
    const lock = join(dir, 'state.lock');
    await writeFile(lock, `${process.pid} ${hostname()} 2026-01-01T00:00:00.000Z\n`);
    await expect(withLock(lock, 'docs/specs/x/graph-state.json', async () => 'ran', { timeoutMs: 300 })).rejects.toThrow(
      `docs/specs/x/graph-state.json is locked by process ${process.pid} on ${hostname()}`,
    );
    expect(await readFile(lock, 'utf8')).toContain(String(process.pid));
  });
});
