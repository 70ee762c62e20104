import type { HarnessAdapter } from '@the-loop/core';
import { CLAUDE_BINARY, claudeOneShot } from './one-shot.js';
import { parseClaudeResult } from './result.js';
import { CLAUDE_HOOK_EVENTS, parseClaudePayload, sampleClaudePayload } from './hook-payload.js';
import { claudeContextReply, claudeReplyText, claudeStopReply } from './hook-reply.js';
import { CLAUDE_DEFAULT_LAUNCHER, CLAUDE_NAME, CLAUDE_SETTINGS, installClaudeHooks, installedClaudeCommands, uninstallClaudeHooks } from './hook-settings.js';

/** Claude Code as a harness the-loop can run once, headless, and answer the hooks of. */
export const claudeAdapter: HarnessAdapter = {
  name: CLAUDE_NAME,
  title: 'Claude Code',
  binary: CLAUDE_BINARY,
  oneShot: claudeOneShot,
  parseResult: parseClaudeResult,
  hooks: {
    events: CLAUDE_HOOK_EVENTS,
    projectDirVariable: 'CLAUDE_PROJECT_DIR',
    parsePayload: parseClaudePayload,
    stopReply: claudeStopReply,
    contextReply: claudeContextReply,
    replyText: claudeReplyText,
    samplePayload: sampleClaudePayload,
  },
  settings: {
    file: CLAUDE_SETTINGS,
    defaultLauncher: CLAUDE_DEFAULT_LAUNCHER,
    install: installClaudeHooks,
    uninstall: uninstallClaudeHooks,
    installed: installedClaudeCommands,
  },
};

export { CLAUDE_BINARY, claudeOneShot } from './one-shot.js';
export { parseClaudeResult } from './result.js';
