import type { HarnessAdapter } from '@the-loop/core';
import { CURSOR_BINARY, cursorOneShot } from './one-shot.js';
import { parseCursorResult } from './result.js';

/** The Cursor agent CLI as a harness the-loop can run once, headless. */
export const cursorAdapter: HarnessAdapter = {
  name: 'cursor',
  binary: CURSOR_BINARY,
  oneShot: cursorOneShot,
  parseResult: parseCursorResult,
};

export { CURSOR_BINARY, INLINE_PROMPT_LIMIT, cursorOneShot } from './one-shot.js';
export { parseCursorResult } from './result.js';

export { CURSOR_HOOK_EVENTS, parseCursorPayload } from './hook-payload.js';
export type { CursorHookEvent, CursorHookPayload } from './hook-payload.js';
export { cursorSessionStartReply, cursorStopReply } from './hook-reply.js';
export {
  CURSOR_DEFAULT_LAUNCHER,
  CURSOR_LOOP_LIMIT,
  cursorHookCommand,
  installCursorHooks,
  installedCursorCommands,
  ownCursorEvent,
  uninstallCursorHooks,
} from './hook-settings.js';
export type { CursorHooksResult } from './hook-settings.js';
