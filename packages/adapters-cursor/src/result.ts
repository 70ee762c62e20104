import { parseResultLike, type HarnessResult } from '@the-loop/core';

/**
 * Read `cursor-agent -p --output-format json` output: a result object like Claude's
 * (`result`, `is_error`, `session_id`); usage is usually absent, so `usage.present` is false.
 */
export function parseCursorResult(stdout: string, exitCode: number): HarnessResult {
  return parseResultLike(stdout, exitCode);
}
