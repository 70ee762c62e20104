import type { HarnessAdapter } from '@the-loop/core';
import { CURSOR_BINARY, cursorOneShot } from './one-shot.js';
import { parseCursorResult } from './result.js';
import { CURSOR_HOOK_EVENTS, parseCursorPayload, sampleCursorPayload } from './hook-payload.js';
import { cursorContextReply, cursorReplyText, cursorStopReply } from './hook-reply.js';
import { CURSOR_DEFAULT_LAUNCHER, CURSOR_HOOKS, CURSOR_NAME, installCursorHooks, installedCursorCommands, uninstallCursorHooks } from './hook-settings.js';

/** The Cursor agent CLI as a harness the-loop can run once, headless, and answer the hooks of. */
export const cursorAdapter: HarnessAdapter = {
  name: CURSOR_NAME,
  title: 'Cursor',
  binary: CURSOR_BINARY,
  oneShot: cursorOneShot,
  parseResult: parseCursorResult,
  hooks: {
    events: CURSOR_HOOK_EVENTS,
    parsePayload: parseCursorPayload,
    stopReply: cursorStopReply,
    contextReply: cursorContextReply,
    replyText: cursorReplyText,
    samplePayload: sampleCursorPayload,
  },
  settings: {
    file: CURSOR_HOOKS,
    defaultLauncher: CURSOR_DEFAULT_LAUNCHER,
    install: installCursorHooks,
    uninstall: uninstallCursorHooks,
    installed: installedCursorCommands,
  },
};

export { CURSOR_BINARY, INLINE_PROMPT_LIMIT, cursorOneShot } from './one-shot.js';
export { parseCursorResult } from './result.js';
