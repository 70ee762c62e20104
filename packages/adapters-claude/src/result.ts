import { parseResultLike, type HarnessResult } from '@the-loop/core';

/**
 * Read `claude -p --output-format json` output: one result object with `result`,
 * `is_error`, `session_id`, `usage` and `total_cost_usd` (stream-json ends with the same
 * object, so its last line is read). Prose is kept as the reply's text.
 */
export function parseClaudeResult(stdout: string, exitCode: number): HarnessResult {
  return parseResultLike(stdout, exitCode);
}
