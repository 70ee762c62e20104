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
