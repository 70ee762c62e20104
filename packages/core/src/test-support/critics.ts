// Test support for critic tests: a valid critic entry with every default spelled out.
import type { CriticEntry } from '../config/reviews.js';

/** A critic entry as parseReviewsConfig returns it for a bare `name` (defaults applied), with `fields` over it. */
export function criticEntry(fields: Partial<CriticEntry> = {}): CriticEntry {
  return {
    name: 'c',
    harness: undefined,
    model: undefined,
    command: undefined,
    args: [],
    env: {},
    cwd: undefined,
    outputFormat: undefined,
    timeoutSeconds: 900,
    enabled: true,
    ...fields,
  };
}
