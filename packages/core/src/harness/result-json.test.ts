import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseResultLike } from './result-json.js';

describe('parseResultLike', () => {
  it('reads result, is_error, session_id, usage and cost from a result object', () => {
    const stdout = JSON.stringify({
      type: 'result',
      is_error: false,
      result: 'two findings',
      session_id: 's-1',
      total_cost_usd: 0.5,
      usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
    });
    expect(parseResultLike(stdout, 0)).toEqual({
      text: 'two findings',
      isError: false,
      sessionId: 's-1',
      usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4, costUsd: 0.5, present: true },
      apiErrorStatus: null,
      structured: undefined,
    });
  });

  it('reads a structured answer from structured_output, else from a reply that is one JSON object', () => {
    const claude = JSON.stringify({ type: 'result', is_error: false, result: '{"next":"b"}', structured_output: { next: 'b' } });
    expect(parseResultLike(claude, 0).structured).toEqual({ next: 'b' });
    const cursor = JSON.stringify({ type: 'result', is_error: false, result: '```json\n{"next": "a"}\n```' });
    expect(parseResultLike(cursor, 0).structured).toEqual({ next: 'a' });
    expect(parseResultLike('{"findings": []}\n', 0).structured).toEqual({ findings: [] });
  });

  it('reads no structured answer from prose, from a list or from JSON inside a sentence', () => {
    const reply = (result: string) => parseResultLike(JSON.stringify({ type: 'result', is_error: false, result }), 0).structured;
    expect(reply('I pick {"next": "a"} because it is next.')).toBeUndefined();
    expect(reply('["a"]')).toBeUndefined();
    expect(reply('{"next": "a"')).toBeUndefined();
    expect(parseResultLike('Findings: none', 0).structured).toBeUndefined();
  });

  it('reads the status of a failed model API call, and only an HTTP error status', () => {
    const failed = (status: unknown) => parseResultLike(JSON.stringify({ type: 'result', is_error: true, result: 'API Error', api_error_status: status }), 1).apiErrorStatus;
    expect(failed(529)).toBe(529);
    expect(failed(404)).toBe(404);
    expect([failed(null), failed('529'), failed(200), failed(404.5), failed(1e9)]).toEqual([null, null, null, null, null]);
  });

  it('reads the final result event of stream-json output', () => {
    const stdout = `${JSON.stringify({ type: 'system' })}\n${JSON.stringify({ type: 'result', result: 'done', is_error: true })}\n`;
    expect(parseResultLike(stdout, 0)).toMatchObject({ text: 'done', isError: true });
  });

  it('reads any is_error other than false as an error: "yes", 1, null and "false" are not success', () => {
    const isError = (value: unknown) => parseResultLike(JSON.stringify({ type: 'result', result: 'text', is_error: value }), 0).isError;
    expect(['yes', 'false', 1, 0, null, {}, true].map(isError)).toEqual([true, true, true, true, true, true, true]);
    expect(isError(false)).toBe(false);
    expect(parseResultLike(JSON.stringify({ type: 'result', result: 'text' }), 0).isError).toBe(false);
  });

  it('keeps prose as the text; a non-zero exit is an error whatever the payload', () => {
    expect(parseResultLike('just prose', 0)).toMatchObject({ text: 'just prose', isError: false, usage: { present: false } });
    expect(parseResultLike(JSON.stringify({ result: 'fine' }), 2).isError).toBe(true);
  });

  it('is total, and its usage always serialises to valid JSON with finite numbers or null', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ result: 'r', usage: v, total_cost_usd: v }))), fc.integer({ min: 0, max: 255 }), (stdout, code) => {
        const result = parseResultLike(stdout, code);
        const round = JSON.parse(JSON.stringify(result.usage)) as Record<string, unknown>;
        expect(round).toEqual(result.usage);
        for (const [key, value] of Object.entries(result.usage)) {
          if (key !== 'present') expect(value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0)).toBe(true);
        }
      }),
    );
  });
});
