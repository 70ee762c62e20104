import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CriticDeclaration } from '../config/reviews.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import { parseResultLike } from '../harness/result-json.js';
import { argvForDigest, cachedVerdict, classifyProbe, declaredModelPairs, parseVerdictFile, type ModelVerdict } from './verdicts.js';

const adapter: Pick<HarnessAdapter, 'name' | 'binary' | 'oneShot' | 'parseResult'> = { name: 'h', binary: 'h-cli', oneShot: (r) => ({ args: [r.prompt] }), parseResult: parseResultLike };
const ran = { spawnError: undefined, timedOut: false, stdout: '', stderr: '' };

describe('classifyProbe', () => {
  it('separates a rejected flag from a refused model', () => {
    expect(classifyProbe({ ...ran, exitCode: 1, stderr: "error: unknown option '-m'\n" }, adapter)).toMatchObject({ verdict: 'unknown', reason: 'flag-rejected', message: expect.stringContaining('-m') });
    expect(classifyProbe({ ...ran, exitCode: 1, stdout: JSON.stringify({ is_error: true, result: 'model x is not available' }) }, adapter)).toEqual({
      verdict: 'refused',
      reason: 'model-refused',
      message: 'model x is not available',
    });
  });

  it('answers ok only for exit 0 without is_error; no answer is unknown', () => {
    expect(classifyProbe({ ...ran, exitCode: 0, stdout: JSON.stringify({ result: 'ok' }) }, adapter).verdict).toBe('ok');
    expect(classifyProbe({ ...ran, exitCode: 0, stdout: JSON.stringify({ result: 'no', is_error: true }) }, adapter).verdict).toBe('refused');
    expect(classifyProbe({ ...ran, spawnError: 'not-found', exitCode: null }, adapter)).toMatchObject({ verdict: 'unknown', reason: 'binary-missing' });
    expect(classifyProbe({ ...ran, timedOut: true, exitCode: null }, adapter)).toMatchObject({ verdict: 'unknown', reason: 'timeout' });
  });

  it('calls only a model API error about the model a refusal; a bad key or an overload is unknown', () => {
    const apiError = (status: number, result: string) => classifyProbe({ ...ran, exitCode: 1, stdout: JSON.stringify({ is_error: true, result, api_error_status: status }) }, adapter);
    expect(apiError(404, 'There is an issue with the selected model')).toMatchObject({ verdict: 'refused', reason: 'model-refused' });
    expect(apiError(403, 'not permitted')).toMatchObject({ verdict: 'refused', reason: 'model-refused' });
    expect(apiError(401, 'Invalid API key')).toEqual({ verdict: 'unknown', reason: 'api-error', message: 'the model API answered 401, which is not about the model: Invalid API key' });
    for (const status of [429, 500, 529]) expect(apiError(status, 'busy')).toMatchObject({ verdict: 'unknown', reason: 'api-error' });
  });

  it('never calls a probe killed by a signal a refusal (it would be cached and withhold the model)', () => {
    expect(classifyProbe({ ...ran, exitCode: null }, adapter)).toMatchObject({ verdict: 'unknown', reason: 'killed' });
  });
});

describe('the verdict cache', () => {
  const verdict = (argvDigest: string): ModelVerdict => ({ harness: 'h', model: 'm', verdict: 'ok', reason: 'answered', message: '', argvDigest, checkedAt: '2026-01-01T00:00:00.000Z' });

  it('applies a verdict only to the argv it was taken against', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const hit = cachedVerdict({ 'h/m': verdict(a) }, { harness: 'h', model: 'm' }, b);
        expect(hit !== undefined).toBe(a === b);
      }),
    );
  });

  it('digests argv unambiguously: moving a space between arguments changes it', () => {
    expect(argvForDigest('x', ['a b', 'c'])).not.toBe(argvForDigest('x', ['a', 'b c']));
  });

  it('reads an unreadable or foreign file as an empty cache', () => {
    for (const text of [undefined, '', 'not json', '[]', '{"schemaVersion":2,"verdicts":{}}', '{"schemaVersion":1,"verdicts":{"h/m":{"verdict":"maybe","argvDigest":"d"}}}']) {
      expect(parseVerdictFile(text)).toEqual({});
    }
  });
});

describe('declaredModelPairs', () => {
  it('takes each distinct harness/model of critics on a built-in harness, skipping commands and unknown harnesses', () => {
    const declare = (fields: Partial<CriticDeclaration>): CriticDeclaration => ({ index: 0, name: 'n', harness: undefined, model: undefined, command: undefined, enabled: true, entry: undefined, problems: [], ...fields });
    const pairs = declaredModelPairs(
      [declare({ harness: 'h', model: 'a' }), declare({ harness: 'h', model: 'a', enabled: false }), declare({ harness: 'h' }), declare({ harness: 'other', model: 'a' }), declare({ harness: 'h', model: 'b', command: 'tool' })],
      [adapter],
    );
    expect(pairs).toEqual([
      { harness: 'h', model: 'a' },
      { harness: 'h', model: undefined },
    ]);
  });
});
