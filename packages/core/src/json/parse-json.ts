import type { Position } from '../diagnostic.js';
import { lineIndex } from '../yaml/line-index.js';

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string; position: Position };

/**
 * The one way the-loop reads JSON it did not just write: a leading byte-order mark is allowed,
 * and a syntax error says what is wrong and where (line and column), never throws.
 */
export function parseJson(text: string): JsonResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message);
    return { ok: false, error: message, position: offset ? lineIndex(body)(Number(offset[1])) : { line: 1, column: 1 } };
  }
}

/** Parse text that must hold one JSON object (a hook payload, a result document, a settings file). */
export function parseJsonObject(text: string, what: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, error: `${what} is not JSON: ${parsed.error}` };
  const { value } = parsed;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `${what} is not a JSON object` };
  return { ok: true, value: value as Record<string, unknown> };
}

/** A non-empty string, or null for anything else. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
