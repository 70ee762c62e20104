import type { HarnessAdapter } from '@the-loop/core';
import { CLAUDE_BINARY, claudeOneShot } from './one-shot.js';
import { parseClaudeResult } from './result.js';

/** Claude Code as a harness the-loop can run once, headless. */
export const claudeAdapter: HarnessAdapter = {
  name: 'claude',
  binary: CLAUDE_BINARY,
  oneShot: claudeOneShot,
  parseResult: parseClaudeResult,
};

export { CLAUDE_BINARY, claudeOneShot } from './one-shot.js';
export { parseClaudeResult } from './result.js';
