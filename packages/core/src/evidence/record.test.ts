import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, ENVIRONMENT, files, TOOLS } from '../evidence/examples.js';
import { canonicalJson, EXCERPT_HEAD, EXCERPT_TAIL, evidenceRecord, readEvidenceRecord, recordedCheck, runPassed, streamOutput, type RecordBody } from './record.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const expected = { workItem: 'w', checkId: 'unit' };

function body(exitCode = 1, stdout = 'ok 1 greets\nnot ok 2 greets the world\n'): RecordBody {
  const run = { exitCode, signal: null, timedOut: false, spawnError: null };
  return {
    workItem: 'w',
    check: recordedCheck({ ...check('unit'), source: 'config' }),
    run: { ...run, passed: runPassed(run, 0), durationMs: 41 },
    output: { stdout: streamOutput(stdout, sha256), stderr: streamOutput('', sha256), truncated: false, redactions: 0 },
    dependencies: files('1'),
    git: { commit: 'a'.repeat(40), dirty: false },
    tools: TOOLS,
    environment: ENVIRONMENT,
    createdAt: '2026-01-02T03:04:05.000Z',
  };
}

const written = (exitCode?: number) => JSON.stringify(evidenceRecord(body(exitCode), sha256), null, 2);

describe('evidence records', () => {
  it('reads back a record exactly as it was sealed', () => {
    const read = readEvidenceRecord(written(), expected, sha256);
    expect(read).toEqual({ record: evidenceRecord(body(), sha256) });
  });

  it('rejects a record whose exit code was edited to a pass', () => {
    const edited = JSON.parse(written(1));
    edited.run.exitCode = 0;
    edited.run.passed = true;
    expect(readEvidenceRecord(JSON.stringify(edited), expected, sha256)).toEqual({ invalid: 'its content does not match its recordDigest: it was edited after the-loop wrote it' });
  });

  it('rejects `passed` that contradicts the exit code, before anything else', () => {
    const edited = JSON.parse(written(1));
    edited.run.passed = true;
    expect(readEvidenceRecord(JSON.stringify(edited), expected, sha256)).toEqual({ invalid: 'it says passed: true, but its run ended with exit 1 (expected 0)' });
  });

  it('rejects output that does not match its digest, even with the record digest recomputed', () => {
    const edited = JSON.parse(written(1));
    edited.output.stdout.excerpt = 'ok 1 greets\nok 2 greets the world\n';
    const { recordDigest: _d, ...rest } = edited;
    const resealed = { ...rest, recordDigest: sha256(canonicalJson(rest)) };
    expect(readEvidenceRecord(JSON.stringify(resealed), expected, sha256)).toEqual({ invalid: 'its stdout digest does not match the stdout it records' });
  });

  it('rejects a record of another work item or check, one that is not JSON, and one off the schema', () => {
    expect(readEvidenceRecord(written(), { workItem: 'x', checkId: 'unit' }, sha256)).toEqual({ invalid: 'it belongs to work item "w", not "x"' });
    expect(readEvidenceRecord(written(), { workItem: 'w', checkId: 'lint' }, sha256)).toEqual({ invalid: 'it records check "unit", not "lint"' });
    expect(readEvidenceRecord('{"schemaVersion":', expected, sha256)).toMatchObject({ invalid: expect.stringMatching(/^it is not JSON/) });
    expect(readEvidenceRecord('{"schemaVersion": 1, "kind": "evidence.v1"}', expected, sha256)).toMatchObject({ invalid: expect.stringMatching(/^it is not an evidence\.v1 record/) });
  });

  it('rejects any single changed value of a sealed record', () => {
    const sealed = evidenceRecord(body(0), sha256);
    const leaves: string[][] = [];
    const walk = (value: unknown, path: string[]) => {
      if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
      else if (path[0] !== 'recordDigest') leaves.push(path);
    };
    walk(sealed, []);
    fc.assert(
      fc.property(fc.constantFrom(...leaves), fc.oneof(fc.string(), fc.integer(), fc.boolean()), (path, replacement) => {
        const copy = structuredClone(sealed) as unknown as Record<string, unknown>;
        let target = copy;
        for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
        const last = path[path.length - 1] as string;
        fc.pre(target[last] !== replacement);
        target[last] = replacement;
        expect(readEvidenceRecord(JSON.stringify(copy), expected, sha256)).toHaveProperty('invalid');
      }),
    );
  });

  it('keeps a short output whole and a long one as its head and tail, with the digest of the whole', () => {
    expect(streamOutput('hello\n', sha256)).toEqual({ sha256: sha256('hello\n'), bytes: 6, excerpt: 'hello\n', complete: true });
    const long = `${'a'.repeat(EXCERPT_HEAD)}${'b'.repeat(5000)}${'c'.repeat(EXCERPT_TAIL)}`;
    const out = streamOutput(long, sha256);
    expect(out).toMatchObject({ sha256: sha256(long), bytes: long.length, complete: false });
    expect(out.excerpt).toBe(`${'a'.repeat(EXCERPT_HEAD)}\n[… 5000 bytes omitted …]\n${'c'.repeat(EXCERPT_TAIL)}`);
  });

  it('never splits a character made of two UTF-16 units at the excerpt edges', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: EXCERPT_HEAD + EXCERPT_TAIL + 1, maxLength: EXCERPT_HEAD + EXCERPT_TAIL + 40 }), (text) => {
        const { excerpt } = streamOutput(text, sha256);
        expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }),
      { numRuns: 20 },
    );
  });

  it('canonical JSON sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe('{"a":{"d":[2,{"e":0,"f":1}]},"b":1}');
  });
});
