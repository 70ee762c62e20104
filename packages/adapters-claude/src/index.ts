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
