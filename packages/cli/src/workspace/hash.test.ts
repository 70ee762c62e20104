// The digests every cache, approval and evidence record is keyed by: the same as `node:crypto`'s,
// whichever way they are taken, and a warm run takes them without loading `node:crypto`.
import { createHash as cryptoHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, LOCKED, makeRepo, runArgv, TASKS_OPEN } from '../test-support/cli.js';
import { createHash } from './hash.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.uint8Array({ maxLength: 200 }));

describe('createHash', () => {
  it('gives SHA-256 and SHA-1 digests equal to node:crypto for any text (lone surrogates too) and bytes, in any pieces', () => {
    fc.assert(
      fc.property(fc.constantFrom('sha256' as const, 'sha1' as const), fc.array(piece, { maxLength: 8 }), (algorithm, pieces) => {
        const ours = createHash(algorithm);
        const theirs = cryptoHash(algorithm);
        for (const data of pieces) {
          expect(ours.update(data)).toBe(ours);
          theirs.update(data);
        }
        expect(ours.digest('hex')).toBe(theirs.digest('hex'));
      }),
      { numRuns: 500 },
    );
  });

  it('digests a megabyte in pieces as in one', () => {
    const bytes = new Uint8Array(1024 * 1024).map((_, i) => (i * 7919) % 251);
    const inPieces = createHash('sha256');
    for (let at = 0; at < bytes.length; at += 65_536) inPieces.update(bytes.subarray(at, at + 65_536));
    expect(inPieces.digest('hex')).toBe(cryptoHash('sha256').update(bytes).digest('hex'));
  });
});

describe('a warm check of the built CLI', () => {
  const item = { 'docs/specs/issue-1/requirements.md': LOCKED, 'docs/specs/issue-1/tasks.md': TASKS_OPEN };

  // What `node:crypto` costs is its thirty modules, so the proof is that a run never loads it.
  it.runIf(['20', '22'].includes(process.versions.node.split('.')[0] as string))('looks its artifacts up by digest without loading node:crypto', async () => {
    const dir = await makeRepo(item);
    temps.push(dir);
    const preload = join(dir, 'loaded.cjs');
    await writeFile(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'loaded.json'))}, JSON.stringify(process.moduleLoadList)));\n`);
    const check = ['check', 'issue-1', '--repo', dir, '--format', 'json'];
    const cold = await runArgv([process.execPath, BIN, ...check], { cwd: dir });
    const warm = await runArgv([process.execPath, '-r', preload, BIN, ...check], { cwd: dir });
    expect([warm.code, warm.stdout, warm.stderr]).toEqual([cold.code, cold.stdout, cold.stderr]);
    const loaded: string[] = JSON.parse(await readFile(join(dir, 'loaded.json'), 'utf8'));
    // The run did read through the artifact cache: its entries are keyed by digest.
    expect(loaded).toContain('Internal Binding crypto');
    expect(loaded).not.toContain('NativeModule crypto');
  });

  it('gives the same answer where the binding is refused (the permission model) and node:crypto is used', async () => {
    const dir = await makeRepo(item);
    temps.push(dir);
    const check = ['check', 'issue-1', '--repo', dir, '--format', 'json'];
    const plain = await runArgv([process.execPath, BIN, ...check], { cwd: dir });
    const permitted = await runArgv([process.execPath, '--experimental-permission', '--allow-fs-read=*', '--no-warnings', BIN, ...check], { cwd: dir });
    expect(plain.code).toBe(1);
    expect([permitted.code, permitted.stdout, permitted.stderr]).toEqual([plain.code, plain.stdout, plain.stderr]);
  });
});
