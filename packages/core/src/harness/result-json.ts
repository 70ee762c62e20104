import { parseJsonObject } from '../json/parse-json.js';
import { NO_USAGE, type HarnessResult, type Usage } from './adapter.js';

/** Keys a reviewer's text is found under, in the order they are tried. */
export const REVIEW_TEXT_KEYS = ['result', 'output', 'text', 'content', 'review', 'message'] as const;

/**
 * The result object a harness printed: the whole stdout as one JSON object, or else the
 * last line that is one (stream-json ends with the result event). Undefined for prose.
 */
export function parseResultObject(stdout: string): Record<string, unknown> | undefined {
  const whole = tryObject(stdout.trim());
  if (whole) return whole;
  const lines = stdout.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  for (let i = lines.length - 1; i >= 0; i--) {
    const found = tryObject(lines[i] as string);
    if (found) return found;
  }
  return undefined;
}

function tryObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  const parsed = parseJsonObject(text, 'the result');
  return parsed.ok ? parsed.value : undefined;
}

/** The reviewer's text from a payload, or undefined when no known key holds a string. */
export function reviewText(payload: Record<string, unknown>): string | undefined {
  for (const key of REVIEW_TEXT_KEYS) {
    const value = payload[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Usage in the shape Claude-style result objects carry it (`usage.input_tokens`…,
 * `total_cost_usd`). A value that is not a finite non-negative number is absent, so a NaN
 * or a string never reaches the JSON envelope.
 */
export function readUsage(payload: Record<string, unknown>): Usage {
  const raw = payload['usage'];
  const usage = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const figures = {
    inputTokens: count(usage['input_tokens']),
    outputTokens: count(usage['output_tokens']),
    cacheReadTokens: count(usage['cache_read_input_tokens']),
    cacheWriteTokens: count(usage['cache_creation_input_tokens']),
    costUsd: count(payload['total_cost_usd'] ?? payload['cost_usd']),
  };
  const present = Object.values(figures).some((value) => value !== null);
  return present ? { ...figures, present } : NO_USAGE;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Whether a result object reports an error. Only `is_error: false` (or no `is_error` at all)
 * is success: `"yes"`, `1` or `null` must never read as a review that ran.
 */
export function reportsError(payload: Record<string, unknown>): boolean {
  return Object.hasOwn(payload, 'is_error') && payload['is_error'] !== false;
}

/**
 * Read a Claude-style result object (`result`, `is_error`, `session_id`, usage). Prose or
 * any other non-object output is still the reviewer's text, never an error by itself;
 * a non-zero exit always is.
 */
export function parseResultLike(stdout: string, exitCode: number): HarnessResult {
  const payload = parseResultObject(stdout);
  if (!payload) return { text: stdout, isError: exitCode !== 0, sessionId: null, usage: NO_USAGE, apiErrorStatus: null, structured: jsonAnswer(stdout) };
  const sessionId = payload['session_id'];
  const status = payload['api_error_status'];
  const text = reviewText(payload) ?? stdout;
  const structured = payload['structured_output'];
  return {
    text,
    isError: exitCode !== 0 || reportsError(payload),
    sessionId: typeof sessionId === 'string' ? sessionId : null,
    usage: readUsage(payload),
    apiErrorStatus: Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599 ? (status as number) : null,
    structured: structured !== undefined && structured !== null ? structured : jsonAnswer(text),
  };
}

/**
 * A reply that is one JSON object: the whole text, or the whole text as one fenced code
 * block (a model asked for JSON sometimes fences it). Anything else is no answer.
 */
export function jsonAnswer(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  const fenced = /^```[A-Za-z]*\r?\n([\s\S]*?)\r?\n```$/.exec(trimmed);
  const body = (fenced ? (fenced[1] as string) : trimmed).trim();
  if (!body.startsWith('{')) return undefined;
  const parsed = parseJsonObject(body, 'the answer');
  return parsed.ok ? parsed.value : undefined;
}
