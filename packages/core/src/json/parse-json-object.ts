/** Parse text that must hold one JSON object (a hook payload, a result document). */
export function parseJsonObject(text: string, what: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${what} is not JSON: ${(error as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `${what} is not a JSON object` };
  return { ok: true, value: value as Record<string, unknown> };
}

/** A non-empty string, or null for anything else. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
