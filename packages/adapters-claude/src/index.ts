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

export { CLAUDE_HOOK_EVENTS, parseClaudePayload } from './hook-payload.js';
export type { ClaudeHookEvent, ClaudeHookPayload } from './hook-payload.js';
export { claudeContextReply, claudeStopReply } from './hook-reply.js';
export {
  CLAUDE_DEFAULT_LAUNCHER,
  claudeHookCommand,
  installClaudeHooks,
  installedClaudeCommands,
  ownClaudeEvent,
  uninstallClaudeHooks,
} from './hook-settings.js';
export type { SettingsResult } from './hook-settings.js';
